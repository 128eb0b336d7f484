package io.agentteams.devstack.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How hard the JIT compilers of a stack's JVMs worked (the one JVM of the embedded stack, or every
 * service's and Kafka's in processes mode): their total compilation time, read with {@code jcmd
 * <pid> PerfCounter.print} ({@code java.ci.totalTime} in ticks of {@code sun.os.hrt.frequency}). A
 * step measured while the compiler is still busy pays for compiling the code it runs, so the
 * benchmark warms up until the compiler is quiet and prints its share per step.
 */
final class StackJit {

  private final long root;

  /** The JVMs of the stack started as {@code root}: it and every JVM among its descendants. */
  StackJit(long root) {
    this.root = root;
  }

  /**
   * Compilation time so far in milliseconds, summed over the stack's JVMs, or -1 when it cannot be
   * read for any of them.
   */
  long compileMillis() {
    List<Long> jvms = new java.util.ArrayList<>();
    ProcessHandle.of(root)
        .ifPresent(
            stack -> {
              jvms.add(stack.pid());
              stack
                  .descendants()
                  .filter(child -> child.info().command().orElse("").endsWith("java"))
                  .forEach(child -> jvms.add(child.pid()));
            });
    long total = -1;
    for (long pid : jvms) {
      long millis = compileMillis(pid);
      if (millis >= 0) {
        total = Math.max(total, 0) + millis;
      }
    }
    return total;
  }

  private static long compileMillis(long pid) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process process =
          new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), "PerfCounter.print"))
              .redirectErrorStream(true)
              .start();
      String counters = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        return -1;
      }
      long ticks = counter(counters, "java.ci.totalTime");
      long frequency = counter(counters, "sun.os.hrt.frequency");
      return ticks < 0 || frequency <= 0 ? -1 : ticks * 1000 / frequency;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static long counter(String counters, String name) {
    for (String line : counters.split("\n")) {
      if (line.startsWith(name + "=")) {
        return Long.parseLong(line.substring(name.length() + 1).trim());
      }
    }
    return -1;
  }
}
