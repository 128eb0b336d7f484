package io.agentteams.platform.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the whole machine's processors were between two moments, from Linux's {@code /proc/stat}
 * (every process counts: the broker, Postgres, the benchmark and anything else running). Lets a
 * benchmark say whether a round was bound by the processors or by waiting.
 */
public final class CpuUsage {

  private static final Path STAT = Path.of("/proc/stat");

  private final long[] start;

  private CpuUsage(long[] start) {
    this.start = start;
  }

  /** Starts measuring now. */
  public static CpuUsage start() {
    return new CpuUsage(read());
  }

  /**
   * The share of all processors' time spent busy since {@link #start()}, from 0 to 1; NaN where
   * {@code /proc/stat} cannot be read.
   */
  public double busySinceStart() {
    long[] now = read();
    if (start == null || now == null) {
      return Double.NaN;
    }
    long total = now[0] - start[0];
    long idle = now[1] - start[1];
    return total <= 0 ? Double.NaN : (double) (total - idle) / total;
  }

  /** {total, idle including I/O wait} jiffies of the first line of /proc/stat, or null. */
  private static long[] read() {
    try {
      String[] fields = Files.readAllLines(STAT).get(0).trim().split("\\s+");
      long total = 0;
      // user nice system idle iowait irq softirq steal (guest time is already in user).
      for (int i = 1; i <= Math.min(8, fields.length - 1); i++) {
        total += Long.parseLong(fields[i]);
      }
      long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
      return new long[] {total, idle};
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }
}
