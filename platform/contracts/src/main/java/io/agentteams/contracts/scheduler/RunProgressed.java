package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a team run's timeline: the run planned, waited for approval, started a round,
 * assigned a task, recorded a task's result or error, synthesised, or ended. Members, the history
 * and the team stream follow a run through these.
 *
 * @param runId the run
 * @param teamId its team
 * @param kind what happened: {@code run.started}, {@code plan.requested}, {@code plan.submitted}
 *     (handed to the task board), {@code plan.ready}, {@code plan.awaiting_approval}, {@code
 *     plan.approved}, {@code round.started}, {@code task.assigned}, {@code task.result}, {@code
 *     task.error}, {@code task.blocked}, {@code synthesis.started}, {@code run.complete}, {@code
 *     run.failed} or {@code run.cancelled}
 * @param state the run's state after it: {@code planning}, {@code awaiting_approval}, {@code
 *     running}, {@code synthesising}, {@code completed}, {@code failed} or {@code cancelled}
 * @param round the round the run is in (0 before the first)
 * @param taskKey the task it concerns, if any
 * @param member the member it concerns, if any
 * @param jobId the job it concerns, if any
 * @param detail a short human-readable account (a result or error is capped at 2,000 characters)
 * @param sequence increases with every entry of this run
 */
public record RunProgressed(
    String runId,
    String teamId,
    String kind,
    String state,
    int round,
    @Nullable String taskKey,
    @Nullable String member,
    @Nullable String jobId,
    String detail,
    long sequence)
    implements EventPayload {

  public static final String TYPE = "RunProgressed";

  @Override
  public String eventType() {
    return TYPE;
  }
}
