package io.agentteams.sdk.tasks;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An imported plan.
 *
 * @param id the plan
 * @param status imported, or awaiting approval
 * @param revision its revision (approval names it)
 * @param importedBy the member that imported it
 * @param approvedBy who approved it, if it needed approval
 * @param tasks each plan key and the task it became
 * @param renamed keys the import changed, and why
 * @param generated keys the import made up for tasks without one
 * @param createdAt when it was imported
 * @param approvedAt when it was approved
 */
public record Plan(
    UUID id,
    String status,
    long revision,
    @Nullable String importedBy,
    @Nullable String approvedBy,
    List<Entry> tasks,
    List<Rename> renamed,
    List<String> generated,
    @Nullable Instant createdAt,
    @Nullable Instant approvedAt) {

  /** The task a plan key became. */
  public Optional<Long> taskId(String key) {
    return tasks.stream().filter(e -> e.key().equals(key)).map(Entry::taskId).findFirst();
  }

  /**
   * A plan key and its task.
   *
   * @param key the key
   * @param taskId the task
   */
  public record Entry(String key, long taskId) {}

  /**
   * A key the import changed.
   *
   * @param original the key as given
   * @param key the key as kept
   * @param reason why
   */
  public record Rename(String original, String key, String reason) {}
}
