package io.agentteams.platform.outbox;

import java.util.List;
import reactor.core.publisher.Mono;

/**
 * A point in the relay's step between the broker's acknowledgement and marking rows published.
 * Production uses {@link #NONE}; fault-injection tests use it to stop a relay exactly there.
 */
@FunctionalInterface
public interface RelayCheckpoint {

  /** Does nothing. */
  RelayCheckpoint NONE = ids -> Mono.empty();

  /**
   * Called once the broker acknowledged the given rows and before they are marked published. An
   * error abandons the step: its transaction rolls back and the rows will be published again.
   */
  Mono<Void> afterAcknowledged(List<Long> outboxIds);
}
