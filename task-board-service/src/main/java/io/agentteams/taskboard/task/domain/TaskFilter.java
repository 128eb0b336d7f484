package io.agentteams.taskboard.task.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Which of a team's tasks a listing holds.
 *
 * @param includeDeleted whether tombstones are listed too
 * @param statuses only tasks with one of these statuses; every status when empty
 * @param owner only this member's tasks; every task when null
 */
public record TaskFilter(
    boolean includeDeleted, List<TaskStatus> statuses, @Nullable String owner) {

  public TaskFilter {
    statuses = statuses.stream().distinct().sorted().toList();
  }

  /**
   * The filter a request names.
   *
   * @param statuses comma-separated wire names, or null/blank for every status
   * @throws io.agentteams.platform.problem.DomainFailure 400 {@code unknown-status} for a name that
   *     is no status
   */
  public static TaskFilter of(
      boolean includeDeleted, @Nullable String statuses, @Nullable String owner) {
    List<TaskStatus> parsed =
        statuses == null || statuses.isBlank()
            ? List.of()
            : Arrays.stream(statuses.split(",")).map(TaskFilter::status).toList();
    return new TaskFilter(includeDeleted, parsed, owner);
  }

  private static TaskStatus status(String wire) {
    try {
      return TaskStatus.fromWire(wire.strip());
    } catch (IllegalArgumentException e) {
      throw BoardProblems.unknownStatus(wire);
    }
  }

  /**
   * A short digest of this filter on one team's board, which a cursor carries so that a cursor is
   * only ever used with the listing it was issued for.
   */
  public String fingerprint(UUID teamId) {
    String canonical =
        teamId
            + "\n"
            + includeDeleted
            + "\n"
            + String.join(",", statuses.stream().map(TaskStatus::wire).toList())
            + "\n"
            + (owner == null ? "\u0000" : owner);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 12));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
