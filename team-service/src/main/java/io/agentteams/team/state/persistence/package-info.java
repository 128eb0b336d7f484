/** Public state entries stored in Postgres through R2DBC. */
@NullMarked
package io.agentteams.team.state.persistence;

import org.jspecify.annotations.NullMarked;
