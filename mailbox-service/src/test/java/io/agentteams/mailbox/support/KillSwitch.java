package io.agentteams.mailbox.support;

import io.agentteams.mailbox.message.application.DeliveryCheckpoint;
import io.agentteams.mailbox.message.persistence.DeliveryStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * Stops the delivery consumer once, when armed, at the point a kill hurts most: after a delivery
 * transaction committed (the copies are in their inboxes) and before the consumer acknowledged its
 * records to Kafka. The consumer is held there until {@link #resume()}, so a test can take the
 * group's committed offsets at that moment — what a kill there leaves behind — and put them back
 * after stopping the consumer, which then reads the killed batch again from Kafka.
 *
 * <p>Why not a real kill of the thread: the consumer's work runs on the database driver's event
 * loop, where anything fatal enough to get past Reactor and the platform's batch fallback breaks
 * the connection instead of the consumer.
 */
public final class KillSwitch implements DeliveryCheckpoint {

  private final AtomicBoolean armed = new AtomicBoolean();
  private final AtomicInteger kills = new AtomicInteger();
  private final AtomicInteger copiesCommittedBeforeKill = new AtomicInteger();
  private volatile CompletableFuture<Void> holding = new CompletableFuture<>();
  private volatile CompletableFuture<Void> resume = CompletableFuture.completedFuture(null);

  /** The next committed delivery stops its consumer before it acknowledges. */
  public void arm() {
    holding = new CompletableFuture<>();
    resume = new CompletableFuture<>();
    armed.set(true);
  }

  /** Whether the armed switch caught a consumer and holds it. */
  public boolean holding() {
    return holding.isDone() && !resume.isDone();
  }

  /** Lets the held consumer go on. */
  public void resume() {
    resume.complete(null);
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
    CompletableFuture<Void> held = resume;
    holding.complete(null);
    return Mono.fromFuture(held);
  }
}
