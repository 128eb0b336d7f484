/** How job changes leave the service: events through the outbox. */
@NullMarked
package io.agentteams.scheduler.job.messaging;

import org.jspecify.annotations.NullMarked;
