package io.agentteams.taskboard.task.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskCursor;
import io.agentteams.taskboard.task.domain.TaskFilter;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.persistence.TaskStore;
import java.util.UUID;
import org.springframework.stereotype.Service;
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

  /**
   * One page of the team's tasks in id order; tombstones only when asked for. The caller is
   * admitted to the team first: only then are the filter, the page size and the cursor checked, so
   * a caller from outside the team gets the same 404 whatever it asks.
   */
  public Mono<TaskListing> page(Caller caller, UUID teamId, TaskListRequest request) {
    return BoardCaller.resolve(access, caller, teamId)
        .flatMap(
            admitted -> {
              TaskFilter filter =
                  TaskFilter.of(request.tombstones(), request.status(), request.owner());
              int size = properties.listPageSize(request.size());
              TaskCursor cursor =
                  request.cursor() == null
                      ? null
                      : TaskCursor.decode(request.cursor(), filter.fingerprint(teamId));
              // One task more than the page holds tells whether another page follows.
              return store
                  .list(teamId, filter, cursor == null ? null : cursor.after(), size + 1)
                  .collectList()
                  .map(
                      tasks ->
                          new TaskListing(
                              teamId,
                              filter,
                              tasks.subList(0, Math.min(size, tasks.size())),
                              tasks.size() > size));
            });
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
