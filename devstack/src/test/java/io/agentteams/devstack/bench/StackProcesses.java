package io.agentteams.devstack.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The processes a stack under measurement runs as — its JVM and everything it started (service and
 * Kafka JVMs in processes mode), and the Postgres server with its backends — and the processor time
 * and memory they use, read from Linux's {@code /proc}. A process that ended is counted through its
 * parent (the kernel adds a reaped child's time to the parent's {@code cutime}/{@code cstime}).
 */
final class StackProcesses {

  /** Clock ticks per second of {@code /proc/<pid>/stat} times ({@code getconf CLK_TCK}). */
  private static final long TICKS_PER_SECOND = ticksPerSecond();

  private final long root;
  private final Path postgresData;

  StackProcesses(long root, Path postgresData) {
    this.root = root;
    this.postgresData = postgresData;
  }

  /** Processor time used so far, in milliseconds. */
  record Cpu(long stackMillis, long postgresMillis) {

    long totalMillis() {
      return stackMillis + postgresMillis;
    }

    Cpu minus(Cpu earlier) {
      return new Cpu(stackMillis - earlier.stackMillis, postgresMillis - earlier.postgresMillis);
    }
  }

  /** The processor time the stack's processes and Postgres's have used so far. */
  Cpu cpu() {
    Set<Long> postgres = tree(postmaster());
    Set<Long> stack = tree(root);
    stack.removeAll(postgres);
    return new Cpu(millis(stack), millis(postgres));
  }

  /**
   * The processor time used so far by each of the stack's JVMs, in milliseconds, by what it runs (a
   * service's application class or Kafka; several replicas of one add up), in processes mode where
   * each service is a JVM of its own. A JVM that ended is not counted.
   */
  java.util.Map<String, Long> cpuByProcess() {
    java.util.Map<String, Long> used = new java.util.TreeMap<>();
    Set<Long> stack = tree(root);
    stack.remove(root);
    stack.removeAll(tree(postmaster()));
    for (long pid : stack) {
      String name = runs(pid);
      if (name != null) {
        used.merge(name, millis(Set.of(pid)), Long::sum);
      }
    }
    return used;
  }

  /** What a JVM runs, from its command line: its main class's simple name, or null. */
  private static @org.jspecify.annotations.Nullable String runs(long pid) {
    try {
      for (String word :
          Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).split("\0")) {
        if (word.equals("kafka.Kafka")) {
          return "Kafka";
        }
        if (word.startsWith("io.agentteams.") && word.endsWith("Application")) {
          return word.substring(word.lastIndexOf('.') + 1).replace("Application", "");
        }
      }
    } catch (IOException | RuntimeException gone) {
      return null;
    }
    return null;
  }

  /** The processor time this JVM (the load generator) has used so far, in milliseconds. */
  static long ownCpuMillis() {
    return millis(Set.of(ProcessHandle.current().pid()));
  }

  /**
   * Memory of the stack's processes (without Postgres), in bytes: their proportional set size, so
   * that pages several processes share count once in all.
   */
  long stackMemory() {
    Set<Long> stack = tree(root);
    stack.removeAll(tree(postmaster()));
    return stack.stream().mapToLong(StackProcesses::pss).sum();
  }

  /**
   * Memory of the Postgres processes, in bytes: proportional set sizes, so that the shared buffers
   * every backend maps count once, not once per backend as resident sizes would.
   */
  long postgresMemory() {
    return tree(postmaster()).stream().mapToLong(StackProcesses::pss).sum();
  }

  private long postmaster() {
    try {
      List<String> pid = Files.readAllLines(postgresData.resolve("postmaster.pid"));
      return Long.parseLong(pid.get(0).trim());
    } catch (IOException | RuntimeException unreadable) {
      return -1;
    }
  }

  private static Set<Long> tree(long pid) {
    Set<Long> pids = new LinkedHashSet<>();
    if (pid > 0) {
      ProcessHandle.of(pid)
          .ifPresent(
              process -> {
                pids.add(process.pid());
                process.descendants().forEach(child -> pids.add(child.pid()));
              });
    }
    return pids;
  }

  private static long millis(Set<Long> pids) {
    long ticks = 0;
    for (long pid : pids) {
      ticks += ticks(pid);
    }
    return ticks * 1000 / TICKS_PER_SECOND;
  }

  /** utime + stime + cutime + cstime of one process, or 0 once it is gone. */
  private static long ticks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) may hold spaces; the fields after its ")" are fixed.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      // Fields 14-17 of the line, counted from field 3 (the state) here.
      return Long.parseLong(fields[11])
          + Long.parseLong(fields[12])
          + Long.parseLong(fields[13])
          + Long.parseLong(fields[14]);
    } catch (IOException | RuntimeException gone) {
      return 0;
    }
  }

  private static long pss(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup"))) {
        if (line.startsWith("Pss:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException gone) {
      return 0;
    }
    return 0;
  }

  private static long ticksPerSecond() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(getconf.getInputStream().readAllBytes()).trim();
      getconf.waitFor();
      return Long.parseLong(out);
    } catch (IOException | RuntimeException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
