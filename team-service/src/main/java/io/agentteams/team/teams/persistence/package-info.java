/** Teams and members stored in Postgres through R2DBC. */
@NullMarked
package io.agentteams.team.teams.persistence;

import org.jspecify.annotations.NullMarked;
