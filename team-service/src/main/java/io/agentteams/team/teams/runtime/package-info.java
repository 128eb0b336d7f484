/** Adapters that ensure member conversations on the agents' runtimes. */
@NullMarked
package io.agentteams.team.teams.runtime;

import org.jspecify.annotations.NullMarked;
