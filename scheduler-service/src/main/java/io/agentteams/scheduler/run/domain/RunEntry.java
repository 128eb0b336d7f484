package io.agentteams.scheduler.run.domain;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a run's timeline.
 *
 * @param sequence increases with every entry of the run
 * @param kind what happened ({@code task.assigned}, {@code run.complete}, ...)
 * @param state the run's state after it
 * @param round the run's round
 * @param taskKey the task it concerns, if any
 * @param member the member it concerns, if any
 * @param jobId the job it concerns, if any
 * @param detail a short account
 * @param at when
 */
public record RunEntry(
    long sequence,
    String kind,
    RunState state,
    int round,
    @Nullable String taskKey,
    @Nullable String member,
    @Nullable UUID jobId,
    String detail,
    Instant at) {

  /** The longest detail an entry keeps. */
  public static final int DETAIL_MAX_CHARS = 2000;

  public RunEntry {
    if (detail.length() > DETAIL_MAX_CHARS) {
      detail = detail.substring(0, DETAIL_MAX_CHARS - 1) + "…";
    }
  }
}
