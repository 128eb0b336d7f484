package io.agentteams.scheduler.dispatch.application;

import io.agentteams.scheduler.dispatch.domain.AgentKey;
import java.util.UUID;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * What a pull worker's job stream asks of worker presence: that the worker counts as connected
 * while its stream is open. The port is the stream's own; the presence capability implements it, so
 * presence knows dispatch and dispatch never reaches back to presence.
 */
public interface StreamPresence {

  /**
   * The stream, with the worker counted as connected from before its first event until it ends
   * (completes, fails or is cancelled by the worker going away).
   */
  <T> Flux<T> whileOpen(AgentKey agent, String workerId, Function<UUID, Flux<T>> stream);
}
