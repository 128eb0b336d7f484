package io.agentteams.devstack;

import java.util.ArrayList;
import java.util.List;

/** Runs stop actions side by side, so that a stop takes as long as the slowest, not the sum. */
public final class AllAtOnce {

  private AllAtOnce() {}

  /**
   * Runs every action in a thread of its own named {@code name} and returns once all have ended; an
   * interrupt while waiting is kept for the caller and does not cut the wait short.
   */
  public static void run(String name, List<Runnable> actions) {
    List<Thread> running = new ArrayList<>();
    for (Runnable action : actions) {
      Thread thread = new Thread(action, name);
      thread.start();
      running.add(thread);
    }
    boolean interrupted = false;
    for (Thread thread : running) {
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
