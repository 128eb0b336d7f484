/** Postgres storage of jobs, quotas, usage and idempotency keys. */
@NullMarked
package io.agentteams.scheduler.job.persistence;

import org.jspecify.annotations.NullMarked;
