package io.agentteams.taskboard.task.messaging;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.contracts.taskboard.ScopeOverlap;
import io.agentteams.contracts.taskboard.TaskBecamePending;
import io.agentteams.contracts.taskboard.TaskBecameReady;
import io.agentteams.contracts.taskboard.TaskBlocked;
import io.agentteams.contracts.taskboard.TaskBoardSettingsChanged;
import io.agentteams.contracts.taskboard.TaskCancelled;
import io.agentteams.contracts.taskboard.TaskClaimExpired;
import io.agentteams.contracts.taskboard.TaskClaimed;
import io.agentteams.contracts.taskboard.TaskCompleted;
import io.agentteams.contracts.taskboard.TaskCreated;
import io.agentteams.contracts.taskboard.TaskDeleted;
import io.agentteams.contracts.taskboard.TaskFailed;
import io.agentteams.contracts.taskboard.TaskProgressed;
import io.agentteams.contracts.taskboard.TaskReassigned;
import io.agentteams.contracts.taskboard.TaskReleased;
import io.agentteams.contracts.taskboard.TaskSnapshot;
import io.agentteams.contracts.taskboard.TaskUpdated;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.taskboard.task.domain.BlockedReason;
import io.agentteams.taskboard.task.domain.BoardEvent;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.WriteScope;
import io.agentteams.taskboard.task.domain.WriteScopes;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Publishes board events as task events through the outbox, in the order they happened, keyed by
 * team id, each with the task's revision after the change as its sequence. Must run inside the
 * transaction of the change (the outbox refuses otherwise).
 */
@Component
public class TaskEvents {

  private final Outbox outbox;

  public TaskEvents(Outbox outbox) {
    this.outbox = outbox;
  }

  /** Appends every event to the outbox, one after the other. */
  public Mono<Void> publish(UUID teamId, String ownerId, List<BoardEvent> events) {
    String team = teamId.toString();
    return Flux.fromIterable(events)
        .concatMap(
            event ->
                outbox.append(
                    Topics.TASK_EVENTS, team, ownerId, sequence(event), payload(team, event)))
        .then();
  }

  /** The wire form of one board event. */
  public static EventPayload payload(String team, BoardEvent event) {
    if (event instanceof BoardEvent.Created e) {
      return new TaskCreated(team, snapshot(e.task()), e.by(), warnings(e.warnings()));
    }
    if (event instanceof BoardEvent.Updated e) {
      return new TaskUpdated(team, snapshot(e.task()), e.by(), e.changed(), warnings(e.warnings()));
    }
    if (event instanceof BoardEvent.Claimed e) {
      Task task = e.task();
      return new TaskClaimed(
          team,
          task.id().value(),
          Objects.requireNonNull(task.owner()),
          String.valueOf(task.claim().claimedAt()),
          task.revision());
    }
    if (event instanceof BoardEvent.Progressed e) {
      Task task = e.task();
      return new TaskProgressed(
          team,
          task.id().value(),
          Objects.requireNonNull(task.owner()),
          task.claim().phase(),
          task.claim().percent(),
          task.revision());
    }
    if (event instanceof BoardEvent.Released e) {
      return new TaskReleased(
          team,
          e.task().id().value(),
          e.previousOwner(),
          e.by(),
          e.task().status().wire(),
          e.task().revision());
    }
    if (event instanceof BoardEvent.Reassigned e) {
      return new TaskReassigned(
          team,
          e.task().id().value(),
          e.previousOwner(),
          Objects.requireNonNull(e.task().owner()),
          e.by(),
          e.task().status().wire(),
          e.task().revision());
    }
    if (event instanceof BoardEvent.Completed e) {
      return new TaskCompleted(
          team,
          e.task().id().value(),
          e.task().owner(),
          e.by(),
          e.task().outcome().result(),
          e.task().revision(),
          ids(e.nowReady()));
    }
    if (event instanceof BoardEvent.Failed e) {
      return new TaskFailed(
          team,
          e.task().id().value(),
          e.task().owner(),
          e.by(),
          String.valueOf(e.task().outcome().error()),
          e.task().revision(),
          ids(e.nowBlocked()));
    }
    if (event instanceof BoardEvent.Cancelled e) {
      return new TaskCancelled(
          team, e.task().id().value(), e.by(), e.task().revision(), ids(e.nowBlocked()));
    }
    if (event instanceof BoardEvent.Deleted e) {
      return new TaskDeleted(
          team, e.task().id().value(), e.by(), e.task().revision(), ids(e.nowBlocked()));
    }
    if (event instanceof BoardEvent.ClaimExpired e) {
      return new TaskClaimExpired(
          team,
          e.task().id().value(),
          e.member(),
          e.lastHeartbeat().toString(),
          e.timeout().toSeconds(),
          e.task().status().wire(),
          e.task().revision(),
          ids(e.nowBlocked()));
    }
    if (event instanceof BoardEvent.BecameReady e) {
      return new TaskBecameReady(
          team, e.task().id().value(), e.task().revision(), e.cause().what(), cause(e.cause()));
    }
    if (event instanceof BoardEvent.BecamePending e) {
      return new TaskBecamePending(
          team, e.task().id().value(), e.task().revision(), e.cause().what(), cause(e.cause()));
    }
    if (event instanceof BoardEvent.Blocked e) {
      BlockedReason reason = Objects.requireNonNull(e.task().blockedReason());
      return new TaskBlocked(
          team,
          e.task().id().value(),
          e.task().revision(),
          reason.kind().wire(),
          reason.dependency().value(),
          e.cause().what(),
          cause(e.cause()));
    }
    if (event instanceof BoardEvent.SettingsChanged e) {
      return new TaskBoardSettingsChanged(
          team,
          e.claimTimeout() == null ? null : e.claimTimeout().toSeconds(),
          e.effectiveClaimTimeout().toSeconds(),
          e.by(),
          e.revision());
    }
    throw new IllegalArgumentException("no task event for " + event);
  }

  /** The event of a claim, known before it is written (the claim writes both in one statement). */
  public static TaskClaimed claimed(
      UUID teamId, TaskId id, String member, Instant at, long revision) {
    return new TaskClaimed(teamId.toString(), id.value(), member, at.toString(), revision);
  }

  /** The sequence the envelope carries: the task's revision (the settings' for settings). */
  static long sequence(BoardEvent event) {
    if (event instanceof BoardEvent.SettingsChanged e) {
      return e.revision();
    }
    return task(event).revision();
  }

  private static Task task(BoardEvent event) {
    if (event instanceof BoardEvent.Created e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Updated e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Claimed e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Progressed e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Released e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Reassigned e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Completed e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Failed e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Cancelled e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Deleted e) {
      return e.task();
    }
    if (event instanceof BoardEvent.ClaimExpired e) {
      return e.task();
    }
    if (event instanceof BoardEvent.BecameReady e) {
      return e.task();
    }
    if (event instanceof BoardEvent.BecamePending e) {
      return e.task();
    }
    if (event instanceof BoardEvent.Blocked e) {
      return e.task();
    }
    throw new IllegalArgumentException("no task in " + event);
  }

  /** A task as events describe it. */
  public static TaskSnapshot snapshot(Task task) {
    BlockedReason reason = task.blockedReason();
    return new TaskSnapshot(
        task.id().value(),
        task.title(),
        task.status().wire(),
        reason == null ? null : reason.kind().wire(),
        reason == null ? null : reason.dependency().value(),
        task.owner(),
        ids(task.dependencies()),
        task.writeScopes().stream().map(WriteScope::path).toList(),
        task.origin().planId() == null ? null : task.origin().planId().toString(),
        task.origin().planKey(),
        task.revision());
  }

  /** Overlap warnings as events carry them. */
  public static List<ScopeOverlap> warnings(List<WriteScopes.Overlap> overlaps) {
    return overlaps.stream()
        .map(
            o ->
                new ScopeOverlap(
                    o.task().value(),
                    o.scope().path(),
                    o.otherTask().value(),
                    o.otherScope().path()))
        .toList();
  }

  private static List<Long> ids(List<TaskId> ids) {
    return ids.stream().map(TaskId::value).toList();
  }

  private static @org.jspecify.annotations.Nullable Long cause(BoardEvent.Cause cause) {
    return cause.task() == null ? null : cause.task().value();
  }
}
