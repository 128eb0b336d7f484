/** Agents stored in Postgres through R2DBC. */
@NullMarked
package io.agentteams.team.agents.persistence;

import org.jspecify.annotations.NullMarked;
