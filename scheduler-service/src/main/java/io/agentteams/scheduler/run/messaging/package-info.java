/** Runs follow their jobs' results from the scheduler's own topic and announce their timeline. */
@NullMarked
package io.agentteams.scheduler.run.messaging;

import org.jspecify.annotations.NullMarked;
