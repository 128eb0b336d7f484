package io.agentteams.devstack.fault;

import io.agentteams.devstack.fault.Anomaly.Kind;
import java.util.List;
import java.util.Locale;

/**
 * One scenario's line of the suite's table.
 *
 * @param scenario its name
 * @param operations operations the clients did
 * @param faults faults injected
 * @param anomalies what the checkers found
 * @param recoveryMillis the longest time from a fault until the workload worked again end to end
 *     (every kind of operation it does completed once more), or -1 when there was no fault
 */
public record Row(
    String scenario, int operations, int faults, List<Anomaly> anomalies, long recoveryMillis) {

  static final String HEADER =
      "| scenario | operations | faults | lost | duplicated | out of order"
          + " | acknowledged but missing | other | recovery |\n"
          + "|---|---|---|---|---|---|---|---|---|";

  public long count(Kind kind) {
    return anomalies.stream().filter(a -> a.kind() == kind).count();
  }

  /** Whether the checkers found nothing and every fault was recovered from. */
  public boolean clean() {
    return anomalies.isEmpty() && (faults == 0 || recoveryMillis >= 0);
  }

  /** The row as a Markdown table line. */
  public String line() {
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %d | %d | %d | %d | %d | %d | %s |",
        scenario,
        operations,
        faults,
        count(Kind.LOST),
        count(Kind.DUPLICATED),
        count(Kind.OUT_OF_ORDER),
        count(Kind.ACKNOWLEDGED_MISSING),
        count(Kind.OTHER),
        recoveryMillis < 0
            ? "not recovered"
            : String.format(Locale.ROOT, "%.1f s", recoveryMillis / 1000.0));
  }
}
