package io.agentteams.devstack.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Java Flight Recording of the stack's JVM for one step, started and stopped with {@code jcmd},
 * and what it says about processor time: the share of execution samples by thread (names without
 * their numbers), by the first frame of the project's own code on the stack, by library, and the
 * hottest methods.
 */
final class FlightRecordings {

  private static final int SHOWN = 15;

  private final long pid;
  private final Path dir;

  FlightRecordings(long pid, Path dir) {
    this.pid = pid;
    this.dir = dir;
  }

  /** Starts a recording named for the step. */
  void start(String step) {
    jcmd("JFR.start", "name=" + step, "settings=profile");
  }

  /** Stops the step's recording and prints its summary; returns the file it was written to. */
  Path stopAndSummarise(String step, PrintStream out) {
    Path file = dir.resolve("capacity-" + step + ".jfr").toAbsolutePath();
    jcmd("JFR.stop", "name=" + step, "filename=" + file);
    try {
      summarise(RecordingFile.readAllEvents(file), out);
    } catch (IOException e) {
      out.println("  (no recording: " + e.getMessage() + ")");
    }
    return file;
  }

  private void jcmd(String... command) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    List<String> line = new java.util.ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    line.addAll(List.of(command));
    try {
      Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
      String said = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("jcmd " + String.join(" ", command) + ": " + said);
      }
    } catch (IOException e) {
      throw new IllegalStateException("jcmd " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static void summarise(List<RecordedEvent> events, PrintStream out) {
    List<RecordedEvent> samples =
        events.stream()
            .filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample"))
            .filter(e -> e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty())
            .toList();
    out.printf(Locale.ROOT, "  %d execution samples%n", samples.size());
    if (samples.isEmpty()) {
      return;
    }
    top(out, "by thread", samples, e -> threadGroup(e.getThread("sampledThread")));
    top(out, "by the project's first frame", samples, FlightRecordings::ownFrame);
    top(out, "by library of the top frame", samples, e -> library(e.getStackTrace()));
    top(out, "by top frame", samples, e -> method(e.getStackTrace().getFrames().get(0)));
  }

  private static void top(
      PrintStream out,
      String title,
      List<RecordedEvent> samples,
      Function<RecordedEvent, String> key) {
    Map<String, Integer> counts = new HashMap<>();
    for (RecordedEvent sample : samples) {
      counts.merge(key.apply(sample), 1, Integer::sum);
    }
    out.println("  " + title + ":");
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(SHOWN)
        .forEach(
            entry ->
                out.printf(
                    Locale.ROOT,
                    "    %5.1f %%  %s%n",
                    100.0 * entry.getValue() / samples.size(),
                    entry.getKey()));
  }

  private static String threadGroup(jdk.jfr.consumer.RecordedThread thread) {
    if (thread == null) {
      return "?";
    }
    String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    return name == null ? "?" : name.replaceAll("\\d+", "#");
  }

  /** The outermost-first search for the project's own frame nearest the top of the stack. */
  private static String ownFrame(RecordedEvent sample) {
    for (RecordedFrame frame : sample.getStackTrace().getFrames()) {
      if (frame.getMethod().getType().getName().startsWith("io.agentteams.")) {
        return method(frame);
      }
    }
    return "(none: library code only)";
  }

  private static String library(RecordedStackTrace stack) {
    String type = stack.getFrames().get(0).getMethod().getType().getName();
    String[] parts = type.split("\\.");
    int depth =
        type.startsWith("io.agentteams.")
            ? 3
            : type.startsWith("org.") || type.startsWith("io.") || type.startsWith("com.") ? 3 : 2;
    return String.join(".", java.util.Arrays.copyOf(parts, Math.min(depth, parts.length - 1)));
  }

  private static String method(RecordedFrame frame) {
    String type = frame.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
  }
}
