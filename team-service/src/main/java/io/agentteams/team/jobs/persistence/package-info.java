/** The projection of the scheduler's jobs stored in Postgres through R2DBC. */
@NullMarked
package io.agentteams.team.jobs.persistence;

import org.jspecify.annotations.NullMarked;
