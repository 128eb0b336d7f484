package io.agentteams.sdk.worker;

import java.time.Duration;

/** The worker's waits between reconnects, report retries and drain checks. */
final class Pause {

  private Pause() {}

  /** Waits {@code wait}; false if the thread was interrupted meanwhile (the worker stops). */
  static boolean waitFor(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
