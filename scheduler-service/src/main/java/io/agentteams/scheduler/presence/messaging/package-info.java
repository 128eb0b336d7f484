/** How changes of worker presence leave the service: events through the outbox. */
@NullMarked
package io.agentteams.scheduler.presence.messaging;

import org.jspecify.annotations.NullMarked;
