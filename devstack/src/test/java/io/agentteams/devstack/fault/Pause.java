package io.agentteams.devstack.fault;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The pacing of the workload's clients, as a real client backs off before it tries again after a
 * failure. It never stands in for waiting on a result: checks wait for events (Awaitility).
 */
final class Pause {

  private Pause() {}

  /** A client's back-off after a failed or unknown attempt. */
  static void backOff() {
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
  }
}
