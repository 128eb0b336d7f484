package io.agentteams.taskboard.task.domain;

import io.agentteams.platform.bounds.TextBound;
import java.time.Duration;

/**
 * The board's configured limits, as the domain checks them.
 *
 * @param title a task's title
 * @param description a task's description
 * @param result a completed task's result
 * @param error a failed task's error
 * @param phase the phase a claimant reports
 * @param writeScope one write scope
 * @param maxTasksPerTeam live (not deleted) tasks per team
 * @param maxDependencies dependencies per task
 * @param maxWriteScopes write scopes per task
 * @param minClaimTimeout the shortest claim time-out a team may choose
 * @param maxClaimTimeout the longest claim time-out a team may choose
 */
public record TaskLimits(
    TextBound title,
    TextBound description,
    TextBound result,
    TextBound error,
    TextBound phase,
    TextBound writeScope,
    int maxTasksPerTeam,
    int maxDependencies,
    int maxWriteScopes,
    Duration minClaimTimeout,
    Duration maxClaimTimeout) {

  public TaskLimits {
    if (maxTasksPerTeam < 1 || maxDependencies < 0 || maxWriteScopes < 0) {
      throw new IllegalArgumentException("task limits must be positive");
    }
    if (minClaimTimeout.isNegative()
        || minClaimTimeout.isZero()
        || maxClaimTimeout.compareTo(minClaimTimeout) < 0) {
      throw new IllegalArgumentException("claim time-out bounds must be positive and ordered");
    }
  }
}
