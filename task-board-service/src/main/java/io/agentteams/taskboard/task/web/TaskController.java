package io.agentteams.taskboard.task.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import io.agentteams.taskboard.task.application.BoardAdmission;
import io.agentteams.taskboard.task.application.TaskCommands;
import io.agentteams.taskboard.task.application.TaskListRequest;
import io.agentteams.taskboard.task.application.TaskOutcome;
import io.agentteams.taskboard.task.application.TaskQueries;
import io.agentteams.taskboard.task.domain.NewTask;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskEdit;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.TaskStatus;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code /api/v1/teams/{teamId}/tasks}: a team's task board. Every write is admitted to the team
 * before its body is read or checked.
 */
@RestController
@RequestMapping("/api/v1/teams/{teamId}/tasks")
public class TaskController {

  private final TaskCommands commands;
  private final TaskQueries queries;
  private final BoardAdmission admission;
  private final TaskPages pages;

  TaskController(
      TaskCommands commands, TaskQueries queries, BoardAdmission admission, TaskPages pages) {
    this.commands = commands;
    this.queries = queries;
    this.admission = admission;
    this.pages = pages;
  }

  /**
   * One page of the board in id order. Follow {@code next_cursor} (with the same filter) until it
   * is null to read the whole board; a task created meanwhile has a larger id than every task
   * listed, so it shows on a later page and no task shows twice.
   */
  @GetMapping
  public Mono<TaskPageView> list(
      Caller caller,
      @PathVariable UUID teamId,
      // Taken as text and read once the caller is admitted: a malformed value must not answer an
      // outsider with 400 where a member of another team gets 404.
      @Parameter(
              description = "list tombstones too",
              schema = @Schema(type = "boolean", defaultValue = "false"))
          @RequestParam(name = "include_deleted", required = false)
          @Nullable String includeDeleted,
      @Parameter(description = "only these statuses, comma-separated")
          @RequestParam(name = "status", required = false)
          @Nullable String status,
      @Parameter(description = "only this member's tasks")
          @RequestParam(name = "owner", required = false)
          @Nullable String owner,
      @Parameter(
              description = "tasks per page: 1 to list-max-page-size (500), 100 unless given",
              schema = @Schema(type = "integer", minimum = "1", maximum = "500"))
          @RequestParam(name = "limit", required = false)
          @Nullable String limit,
      @Parameter(description = "the previous page's next_cursor, with the same filters")
          @RequestParam(name = "cursor", required = false)
          @Nullable String cursor) {
    return queries
        .page(caller, teamId, new TaskListRequest(includeDeleted, status, owner, limit, cursor))
        .map(pages::fit);
  }

  @PostMapping
  public Mono<ResponseEntity<OutcomeView>> create(
      Caller caller, @PathVariable UUID teamId, @RequestBody Mono<TaskRequests.Create> body) {
    return admission
        .admit(caller, teamId)
        .then(body)
        .flatMap(
            request -> {
              NewTask draft =
                  new NewTask(
                      request.title(),
                      request.description(),
                      TaskRequests.orEmpty(request.dependencies()),
                      TaskRequests.orEmpty(request.writeScopes()),
                      request.owner());
              return commands
                  .create(caller, teamId, draft)
                  .map(
                      outcome ->
                          ResponseEntity.created(
                                  URI.create(
                                      "/api/v1/teams/"
                                          + teamId
                                          + "/tasks/"
                                          + outcome.task().id().value()))
                              .body(OutcomeView.of(outcome)));
            });
  }

  @GetMapping("/settings")
  public Mono<SettingsView> settings(Caller caller, @PathVariable UUID teamId) {
    return queries.settings(caller, teamId).map(SettingsView::of);
  }

  @PutMapping("/settings")
  public Mono<SettingsView> changeSettings(
      Caller caller, @PathVariable UUID teamId, @RequestBody Mono<TaskRequests.Settings> body) {
    return admission
        .admit(caller, teamId)
        .then(body)
        .flatMap(
            request -> {
              Long seconds = request.claimTimeoutSeconds();
              return commands
                  .changeClaimTimeout(
                      caller,
                      teamId,
                      TaskRequests.expected(request.expectedRevision()),
                      seconds == null ? null : Duration.ofSeconds(seconds))
                  .map(SettingsView::of);
            });
  }

  @GetMapping("/{taskId}")
  public Mono<TaskView> get(Caller caller, @PathVariable UUID teamId, @PathVariable long taskId) {
    return queries.find(caller, teamId, id(taskId)).map(TaskView::of);
  }

  @PatchMapping("/{taskId}")
  public Mono<OutcomeView> patch(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Patch> body) {
    return change(
        caller,
        teamId,
        body,
        request -> {
          long expected = TaskRequests.expected(request.expectedRevision());
          if (request.status() != null) {
            if (!TaskStatus.CANCELLED.wire().equals(request.status())) {
              throw WebProblems.invalid(
                  "invalid-status-change",
                  "status can only be set to cancelled; other transitions have their own endpoints");
            }
            if (request.title() != null
                || request.description() != null
                || request.dependencies() != null
                || request.writeScopes() != null) {
              throw WebProblems.invalid(
                  "cancel-with-edits", "cancel a task without editing it in the same request");
            }
            return commands.cancel(caller, teamId, id(taskId), expected);
          }
          TaskEdit edit =
              new TaskEdit(
                  request.title(),
                  request.description(),
                  request.dependencies(),
                  request.writeScopes());
          return commands.update(caller, teamId, id(taskId), expected, edit);
        });
  }

  @DeleteMapping("/{taskId}")
  public Mono<OutcomeView> delete(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestParam(name = "expected_revision", required = false) @Nullable Long expectedRevision) {
    return commands
        .delete(caller, teamId, id(taskId), TaskRequests.expected(expectedRevision))
        .map(OutcomeView::of);
  }

  @PostMapping("/{taskId}/claim")
  public Mono<OutcomeView> claim(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Revision> body) {
    return change(
        caller,
        teamId,
        body,
        request ->
            commands.claim(
                caller, teamId, id(taskId), TaskRequests.expected(request.expectedRevision())));
  }

  @PostMapping("/{taskId}/release")
  public Mono<OutcomeView> release(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Revision> body) {
    return change(
        caller,
        teamId,
        body,
        request ->
            commands.release(
                caller, teamId, id(taskId), TaskRequests.expected(request.expectedRevision())));
  }

  @PostMapping("/{taskId}/reassign")
  public Mono<OutcomeView> reassign(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Reassign> body) {
    return change(
        caller,
        teamId,
        body,
        request -> {
          if (request.member() == null || request.member().isBlank()) {
            throw WebProblems.invalid("missing-field", "member is required");
          }
          return commands.reassign(
              caller,
              teamId,
              id(taskId),
              TaskRequests.expected(request.expectedRevision()),
              request.member());
        });
  }

  @PostMapping("/{taskId}/heartbeat")
  public Mono<OutcomeView> heartbeat(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Heartbeat> body) {
    return change(
        caller,
        teamId,
        body,
        request -> {
          Task.Progress progress =
              request.phase() == null && request.percent() == null
                  ? null
                  : new Task.Progress(
                      request.phase(), request.percent() == null ? 0 : request.percent());
          return commands.heartbeat(
              caller,
              teamId,
              id(taskId),
              TaskRequests.expected(request.expectedRevision()),
              progress);
        });
  }

  @PostMapping("/{taskId}/complete")
  public Mono<OutcomeView> complete(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Complete> body) {
    return change(
        caller,
        teamId,
        body,
        request ->
            commands.complete(
                caller,
                teamId,
                id(taskId),
                TaskRequests.expected(request.expectedRevision()),
                request.result()));
  }

  @PostMapping("/{taskId}/fail")
  public Mono<OutcomeView> fail(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long taskId,
      @RequestBody Mono<TaskRequests.Fail> body) {
    return change(
        caller,
        teamId,
        body,
        request ->
            commands.fail(
                caller,
                teamId,
                id(taskId),
                TaskRequests.expected(request.expectedRevision()),
                request.error()));
  }

  /**
   * A write to one task: the caller is admitted to the team first, then its body is read and turned
   * into the command it asks for, whose outcome is answered.
   */
  private <B> Mono<OutcomeView> change(
      Caller caller, UUID teamId, Mono<B> body, Function<B, Mono<TaskOutcome>> command) {
    return admission.admit(caller, teamId).then(body).flatMap(command).map(OutcomeView::of);
  }

  private static TaskId id(long value) {
    if (value < 1 || value > TaskId.MAX) {
      throw WebProblems.notFound("task", value);
    }
    return TaskId.of(value);
  }

  /** A board's settings as the API shows them. */
  public record SettingsView(
      @Nullable Long claimTimeoutSeconds, long effectiveClaimTimeoutSeconds, long revision) {
    static SettingsView of(TaskStore.BoardSettings settings) {
      return new SettingsView(
          settings.claimTimeout() == null ? null : settings.claimTimeout().toSeconds(),
          settings.effectiveClaimTimeout().toSeconds(),
          settings.revision());
    }
  }
}
