package io.agentteams.taskboard.task.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.TaskStatus;
import io.agentteams.taskboard.task.persistence.TaskStore;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reading a board: any member of the team and the team's owner may. */
@Service
public class TaskQueries {

  private final RosterAccess access;
  private final TaskStore store;
  private final TaskBoardProperties properties;

  public TaskQueries(RosterAccess access, TaskStore store, TaskBoardProperties properties) {
    this.access = access;
    this.store = store;
    this.properties = properties;
  }

  /** The team's tasks in id order; tombstones only when asked for. */
  public Flux<Task> list(
      Caller caller,
      UUID teamId,
      boolean includeDeleted,
      List<TaskStatus> statuses,
      @Nullable String owner) {
    return BoardCaller.resolve(access, caller, teamId)
        .flatMapMany(a -> store.list(teamId, includeDeleted, statuses, owner));
  }

  /** One task; a deleted one is returned as its tombstone. */
  public Mono<Task> find(Caller caller, UUID teamId, TaskId id) {
    return BoardCaller.resolve(access, caller, teamId)
        .then(store.find(teamId, id))
        .switchIfEmpty(Mono.error(() -> BoardProblems.taskNotFound(id)));
  }

  /** The board's settings (the defaults when the team has no board yet). */
  public Mono<TaskStore.BoardSettings> settings(Caller caller, UUID teamId) {
    return BoardCaller.resolve(access, caller, teamId)
        .then(store.settings(teamId, properties.claimTimeout()))
        .defaultIfEmpty(new TaskStore.BoardSettings(null, properties.claimTimeout(), 1));
  }
}
