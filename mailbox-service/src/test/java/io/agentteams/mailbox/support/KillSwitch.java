package io.agentteams.mailbox.support;

import io.agentteams.mailbox.message.application.DeliveryCheckpoint;
import io.agentteams.mailbox.message.persistence.DeliveryStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * Kills the delivery path once, when armed: after a delivery transaction committed and before the
 * consumer acknowledged its records to Kafka — the moment a crash leaves effects durable but the
 * records unacknowledged, so they come again.
 */
public final class KillSwitch implements DeliveryCheckpoint {

  private final AtomicBoolean armed = new AtomicBoolean();
  private final AtomicInteger kills = new AtomicInteger();
  private final AtomicInteger copiesCommittedBeforeKill = new AtomicInteger();

  /** The next committed delivery kills the consumer. */
  public void arm() {
    armed.set(true);
  }

  /** How many times it fired. */
  public int kills() {
    return kills.get();
  }

  /** How many copies the killed transaction had already committed. */
  public int copiesCommittedBeforeKill() {
    return copiesCommittedBeforeKill.get();
  }

  @Override
  public Mono<Void> afterCommitted(List<DeliveryStore.Delivered> delivered) {
    if (!armed.compareAndSet(true, false)) {
      return Mono.empty();
    }
    kills.incrementAndGet();
    copiesCommittedBeforeKill.addAndGet(delivered.size());
    return Mono.error(
        new IllegalStateException("delivery consumer killed after applying, before acknowledging"));
  }
}
