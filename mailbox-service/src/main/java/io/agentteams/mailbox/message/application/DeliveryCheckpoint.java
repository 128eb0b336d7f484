package io.agentteams.mailbox.message.application;

import io.agentteams.mailbox.message.persistence.DeliveryStore;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * A point in the delivery path after a delivery transaction committed (the copies are in their
 * inboxes and marked delivered) and before the delivery consumer acknowledges its Kafka records.
 * Production has none; fault-injection tests stop a consumer exactly there, and the benchmark
 * stamps arrivals there.
 */
@FunctionalInterface
public interface DeliveryCheckpoint {

  /** Does nothing. */
  DeliveryCheckpoint NONE = delivered -> Mono.empty();

  /**
   * Called once the copies' delivery committed. An error fails the consumer's batch after its
   * effect is durable, so its records are processed again, which must change nothing.
   */
  Mono<Void> afterCommitted(List<DeliveryStore.Delivered> delivered);
}
