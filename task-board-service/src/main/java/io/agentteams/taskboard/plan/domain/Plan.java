package io.agentteams.taskboard.plan.domain;

import io.agentteams.taskboard.task.domain.Actor;
import io.agentteams.taskboard.task.domain.TaskId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An imported plan: which tasks it created, how normalisation changed it, and whether it waits for
 * the owner's approval.
 */
public record Plan(
    UUID id,
    UUID teamId,
    PlanStatus status,
    long revision,
    String importedBy,
    @Nullable String approvedBy,
    List<Entry> tasks,
    List<PlanNormalizer.Rename> renamed,
    List<String> generated,
    Instant createdAt,
    @Nullable Instant approvedAt) {

  public Plan {
    tasks = List.copyOf(tasks);
    renamed = List.copyOf(renamed);
    generated = List.copyOf(generated);
  }

  /** One task of the plan: its key and the id the board gave it. */
  public record Entry(String key, TaskId taskId) {}

  /** A plan just imported, held for approval when {@code hold}. */
  public static Plan imported(
      UUID id,
      UUID teamId,
      String importedBy,
      boolean hold,
      List<Entry> tasks,
      PlanNormalizer.Result normalised,
      Instant now) {
    return new Plan(
        id,
        teamId,
        hold ? PlanStatus.AWAITING_APPROVAL : PlanStatus.IMPORTED,
        1,
        importedBy,
        null,
        tasks,
        normalised.renamed(),
        normalised.generated(),
        now,
        null);
  }

  /**
   * The team's owner approves the plan.
   *
   * @throws io.agentteams.platform.problem.DomainFailure for anyone else, a stale revision or a
   *     plan that is not held
   */
  public Plan approve(Actor actor, long expectedRevision, Instant now) {
    if (!(actor instanceof Actor.TeamOwner owner)) {
      throw PlanProblems.ownerOnly();
    }
    if (expectedRevision != revision) {
      throw PlanProblems.staleRevision(id, revision, expectedRevision);
    }
    if (status != PlanStatus.AWAITING_APPROVAL) {
      throw PlanProblems.notAwaitingApproval(id, status);
    }
    return new Plan(
        id,
        teamId,
        PlanStatus.APPROVED,
        revision + 1,
        importedBy,
        owner.ownerId(),
        tasks,
        renamed,
        generated,
        createdAt,
        now);
  }
}
