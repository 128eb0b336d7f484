package io.agentteams.platform.test;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * How much the JIT compiler worked between two moments, as a share of the wall-clock time. A
 * benchmark warms up until a round leaves the JIT quiet, so that measured rounds are not paying for
 * compiling the code they run (on two cores, compiling a Spring service's hot paths takes one
 * processor for tens of seconds).
 */
public final class JitActivity {

  private static final CompilationMXBean COMPILER = ManagementFactory.getCompilationMXBean();

  private final long compileMillis;
  private final long startNanos;

  private JitActivity() {
    this.compileMillis = compileMillis();
    this.startNanos = System.nanoTime();
  }

  /** Starts measuring now. */
  public static JitActivity start() {
    return new JitActivity();
  }

  /**
   * Compilation time since {@link #start()} over the wall-clock time, summed over the compiler
   * threads (so it can exceed 1); 0 where the JVM does not report compilation time.
   */
  public double shareSinceStart() {
    double wallMillis = (System.nanoTime() - startNanos) / 1e6;
    return wallMillis <= 0 ? 0 : (compileMillis() - compileMillis) / wallMillis;
  }

  /**
   * Runs warm-up rounds until one leaves the JIT quiet ({@code quietShare} of its time or less) or
   * {@code maxRounds} ran (the system property {@code bench.max-warmups} overrides it), and says
   * how it went.
   */
  public static void warmUp(String name, double quietShare, int maxRounds, Round round)
      throws Exception {
    int limit = Integer.getInteger("bench.max-warmups", maxRounds);
    double share = Double.NaN;
    int rounds = 0;
    while (rounds < limit) {
      JitActivity jit = start();
      round.run();
      rounds++;
      share = jit.shareSinceStart();
      if (share <= quietShare) {
        break;
      }
    }
    System.out.printf(
        "  %s: %d warm-up round(s); the JIT compiled %.0f%% of the last one's time%n",
        name, rounds, 100 * share);
  }

  /** One warm-up round; benchmarks' rounds may throw. */
  @FunctionalInterface
  public interface Round {
    void run() throws Exception;
  }

  private static long compileMillis() {
    return COMPILER != null && COMPILER.isCompilationTimeMonitoringSupported()
        ? COMPILER.getTotalCompilationTime()
        : 0;
  }
}
