/**
 * The roster projection: each service's own copy of team rosters, built from team events through
 * the idempotent consumer and guarded by the team revision so that stale events change nothing.
 */
@NullMarked
package io.agentteams.platform.roster;

import org.jspecify.annotations.NullMarked;
