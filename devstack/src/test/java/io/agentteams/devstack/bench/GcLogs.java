package io.agentteams.devstack.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * The garbage collection logs of the stack's JVMs ({@code -Xlog:gc:file=<dir>/gc-%p.log}), read
 * from where the previous look stopped: the pauses since then and each JVM's heap after its latest
 * collection.
 */
final class GcLogs {

  /** e.g. {@code GC(12) Pause Young (Allocation Failure) 150M->40M(256M) 3.456ms}. */
  private static final Pattern PAUSE =
      Pattern.compile("GC\\(\\d+\\) Pause .*? (\\d+)M->(\\d+)M\\((\\d+)M\\) ([0-9.]+)ms");

  private final Path dir;
  private final Map<Path, Long> readUpTo = new HashMap<>();
  private final Map<Path, Long> heapAfter = new HashMap<>();

  GcLogs(Path dir) {
    this.dir = dir;
  }

  /** The JVM option that writes a stack JVM's log where this reads it. */
  static String option(Path dir) {
    return "-Xlog:gc:file=" + dir.resolve("gc-%p.log").toAbsolutePath() + ":uptime";
  }

  /** What the logs say since the previous call. */
  record Since(Histogram pausesMicros, long heapAfterBytes, long collections) {

    double pauseP99Millis() {
      return pausesMicros.getTotalCount() == 0 ? 0 : pausesMicros.getValueAtPercentile(99) / 1000.0;
    }
  }

  Since since() {
    Histogram pauses = new Histogram(3);
    long collections = 0;
    try (DirectoryStream<Path> logs = Files.newDirectoryStream(dir, "gc-*.log")) {
      for (Path log : logs) {
        long from = readUpTo.getOrDefault(log, 0L);
        String added;
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
          long length = file.length();
          byte[] bytes = new byte[(int) Math.max(0, length - from)];
          file.seek(from);
          file.readFully(bytes);
          // Only whole lines; the rest waits for the next look.
          int end = lastNewline(bytes);
          added = new String(bytes, 0, end, StandardCharsets.UTF_8);
          readUpTo.put(log, from + end);
        }
        Matcher pause = PAUSE.matcher(added);
        while (pause.find()) {
          collections++;
          pauses.recordValue(Math.round(Double.parseDouble(pause.group(4)) * 1000));
          heapAfter.put(log, Long.parseLong(pause.group(2)) * 1024 * 1024);
        }
      }
    } catch (IOException unreadable) {
      return new Since(pauses, -1, collections);
    }
    long heap = heapAfter.values().stream().mapToLong(Long::longValue).sum();
    return new Since(pauses, heap, collections);
  }

  private static int lastNewline(byte[] bytes) {
    for (int i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }
}
