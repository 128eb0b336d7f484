package io.agentteams.platform.test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** For benchmarks: remembers when each message arrived and wakes whoever waits for it. */
public final class Arrivals {

  private final Duration timeout;
  private final Map<String, Long> arrived = new ConcurrentHashMap<>();
  private final Map<String, CountDownLatch> waiting = new ConcurrentHashMap<>();

  /**
   * @param timeout how long {@link #await} waits before it gives up
   */
  public Arrivals(Duration timeout) {
    this.timeout = timeout;
  }

  /** Records that the message arrived now (the first arrival counts). */
  public void arrived(String id) {
    arrived.putIfAbsent(id, System.nanoTime());
    latch(id).countDown();
  }

  /** Waits until the message arrived; returns when it did, in {@link System#nanoTime()}. */
  public long await(String id) throws InterruptedException {
    if (!latch(id).await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("message " + id + " never arrived");
    }
    waiting.remove(id);
    return arrived.remove(id);
  }

  private CountDownLatch latch(String id) {
    return waiting.computeIfAbsent(id, k -> new CountDownLatch(1));
  }
}
