package io.agentteams.platform.outbox;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * This process's commits of outbox rows, as a signal its relay wakes on: a row written here is
 * published as soon as its transaction commits, with no notification and no poll. (Rows written by
 * other processes reach a relay through their own process's relay, the database's notifications
 * while the relays say they are idle, or the poll.)
 */
public final class OutboxCommits {

  private final Sinks.Many<Boolean> committed = Sinks.many().multicast().directBestEffort();

  /**
   * A transaction or statement of this process that wrote outbox rows committed. A signal stands
   * for "look once more", so one given while the relay is busy is enough for every commit before
   * it.
   */
  public void committed() {
    // Serialised: a sink refuses a second emission racing the first, and that one must not be lost.
    synchronized (committed) {
      committed.tryEmitNext(Boolean.TRUE);
    }
  }

  /** The signals, for the relay. */
  Flux<Boolean> signals() {
    return committed.asFlux();
  }
}
