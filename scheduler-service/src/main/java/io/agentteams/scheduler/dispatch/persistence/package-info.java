/** Dispatch queries over the job table. */
@NullMarked
package io.agentteams.scheduler.dispatch.persistence;

import org.jspecify.annotations.NullMarked;
