package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A run's timeline in the phases a person follows it by: the plan, each round with its tasks, the
 * synthesis and the end.
 *
 * @param phases in order
 */
public record RunTimeline(List<Phase> phases) {

  /** One entry of the timeline as the API shows it. */
  public record Entry(
      long sequence,
      String kind,
      String state,
      int round,
      @Nullable String taskId,
      @Nullable String member,
      @Nullable UUID jobId,
      String detail,
      Instant at) {}

  /** A phase and its entries. */
  public record Phase(String title, List<Entry> entries) {}

  /** Groups the entries, oldest first, into consecutive phases. */
  public static RunTimeline of(List<Entry> entries) {
    List<Phase> phases = new ArrayList<>();
    String current = null;
    List<Entry> members = new ArrayList<>();
    for (Entry entry : entries) {
      String title = phaseOf(entry);
      if (!title.equals(current)) {
        if (current != null) {
          phases.add(new Phase(current, List.copyOf(members)));
        }
        current = title;
        members = new ArrayList<>();
      }
      members.add(entry);
    }
    if (current != null) {
      phases.add(new Phase(current, List.copyOf(members)));
    }
    return new RunTimeline(List.copyOf(phases));
  }

  private static String phaseOf(Entry entry) {
    if (entry.kind().startsWith("synthesis") || entry.kind().equals("run.complete")) {
      return "Synthesis";
    }
    if (entry.kind().equals("run.failed") || entry.kind().equals("run.cancelled")) {
      return "End";
    }
    return entry.round() == 0 ? "Plan" : "Round " + entry.round();
  }
}
