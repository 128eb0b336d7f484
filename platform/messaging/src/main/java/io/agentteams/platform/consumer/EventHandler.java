package io.agentteams.platform.consumer;

import io.agentteams.platform.event.EventEnvelope;
import reactor.core.publisher.Mono;

/**
 * Applies one event's effect. It runs inside the transaction that also records the event as
 * processed, so whatever it writes through the application's {@code DatabaseClient} commits
 * together with that mark, or not at all.
 */
@FunctionalInterface
public interface EventHandler {

  Mono<Void> handle(EventEnvelope event);
}
