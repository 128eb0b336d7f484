package io.agentteams.taskboard.task.application;

import io.agentteams.taskboard.task.domain.BoardProblems;
import org.jspecify.annotations.Nullable;

/**
 * A request for one page of a team's tasks, as the client sent it: checked only once the caller is
 * admitted to the team, so an outsider learns nothing from what it sends.
 *
 * @param includeDeleted {@code true} to list tombstones too; null or {@code false} for none
 * @param status only these statuses, comma-separated; null for every status
 * @param owner only this member's tasks; null for every task
 * @param limit tasks per page, a number from 1 to the maximum; null for the default
 * @param cursor the previous page's {@code next_cursor}, issued for the same filter
 */
public record TaskListRequest(
    @Nullable String includeDeleted,
    @Nullable String status,
    @Nullable String owner,
    @Nullable String limit,
    @Nullable String cursor) {

  /**
   * Whether tombstones are listed.
   *
   * @throws io.agentteams.platform.problem.DomainFailure 400 {@code invalid-parameter} for anything
   *     but true or false
   */
  public boolean tombstones() {
    if (includeDeleted == null || includeDeleted.equalsIgnoreCase("false")) {
      return false;
    }
    if (includeDeleted.equalsIgnoreCase("true")) {
      return true;
    }
    throw BoardProblems.notABoolean("include_deleted");
  }

  /**
   * The page size asked for, null for the default.
   *
   * @throws io.agentteams.platform.problem.DomainFailure 400 {@code invalid-limit} when it is not a
   *     whole number
   */
  public @Nullable Integer size() {
    if (limit == null) {
      return null;
    }
    try {
      return Integer.valueOf(limit.strip());
    } catch (NumberFormatException e) {
      throw BoardProblems.limitNotANumber(limit);
    }
  }
}
