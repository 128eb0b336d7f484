package io.agentteams.platform.test;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reports a non-blocking thread (a Reactor Netty event loop, the server's or a client's, or a
 * Reactor {@code parallel} worker) found in the same place, not waiting for work, in every sample
 * over {@link #STUCK}: every connection that loop serves waits meanwhile, so a call a test makes
 * goes unanswered although the others are served. Started once per test JVM with the shared
 * infrastructure; the report (the thread's stack, once per stall) goes to standard error, marked
 * {@code EVENT LOOP STALLED}, beside the test's own output.
 */
public final class EventLoopWatch {

  /** How long a thread may stay in one place before it is reported. */
  static final Duration STUCK = Duration.ofSeconds(3);

  /** Once a second: every look stops the JVM briefly to walk each thread's stack. */
  private static final Duration SAMPLE = Duration.ofSeconds(1);

  private static final int FRAMES = 12;
  private static final int IDLE_DEPTH = FRAMES;

  /** Frames of a thread waiting for work: an event loop's poll, an executor's queue. */
  private static final Set<String> IDLE =
      Set.of(
          "io.netty.channel.epoll.Native.epollWait",
          "io.netty.channel.epoll.Native.epollWait0",
          "io.netty.channel.epoll.Native.epollBusyWait0",
          "sun.nio.ch.EPoll.wait",
          "sun.nio.ch.SelectorImpl.lockAndDoSelect",
          "java.util.concurrent.ThreadPoolExecutor.getTask");

  private static boolean started;

  private final Consumer<String> reports;
  private final Map<Thread, Place> places = new HashMap<>();

  EventLoopWatch(Consumer<String> reports) {
    this.reports = reports;
  }

  /** Starts the watch once per JVM. */
  public static synchronized void start() {
    if (started) {
      return;
    }
    started = true;
    EventLoopWatch watch = new EventLoopWatch(System.err::print);
    Thread thread = new Thread(watch::run, "event-loop-watch");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      sample(Thread.getAllStackTraces(), System.nanoTime());
      try {
        Thread.sleep(SAMPLE.toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One look at every thread, at {@code now} (nanoseconds). */
  void sample(Map<Thread, StackTraceElement[]> stacks, long now) {
    places.keySet().retainAll(stacks.keySet());
    stacks.forEach(
        (thread, stack) -> {
          if (!watched(thread) || idle(stack)) {
            places.remove(thread);
            return;
          }
          StackTraceElement[] top = Arrays.copyOf(stack, Math.min(FRAMES, stack.length));
          Place place = places.get(thread);
          if (place == null || !Arrays.equals(place.top(), top)) {
            places.put(thread, new Place(top, now, false));
          } else if (!place.reported() && now - place.since() >= STUCK.toNanos()) {
            places.put(thread, new Place(top, place.since(), true));
            reports.accept(report(thread, stack, Duration.ofNanos(now - place.since())));
          }
        });
  }

  private static boolean idle(StackTraceElement[] stack) {
    for (int i = 0; i < Math.min(IDLE_DEPTH, stack.length); i++) {
      if (IDLE.contains(stack[i].getClassName() + "." + stack[i].getMethodName())) {
        return true;
      }
    }
    return stack.length == 0;
  }

  private static boolean watched(Thread thread) {
    String name = thread.getName();
    return name.startsWith("reactor-http-")
        || name.startsWith("webflux-http-")
        || name.startsWith("reactor-tcp-")
        || name.startsWith("parallel-");
  }

  private static String report(Thread thread, StackTraceElement[] stack, Duration stuck) {
    StringBuilder text =
        new StringBuilder("EVENT LOOP STALLED: ")
            .append(thread.getName())
            .append(" (")
            .append(thread.getState())
            .append(") in one place for ")
            .append(stuck.toMillis())
            .append(" ms\n");
    for (StackTraceElement frame : stack) {
      text.append("\tat ").append(frame).append('\n');
    }
    return text.toString();
  }

  private record Place(StackTraceElement[] top, long since, boolean reported) {}
}
