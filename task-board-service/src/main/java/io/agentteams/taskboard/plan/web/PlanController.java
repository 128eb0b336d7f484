package io.agentteams.taskboard.plan.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import io.agentteams.taskboard.plan.application.PlanCommands;
import io.agentteams.taskboard.plan.domain.Plan;
import io.agentteams.taskboard.plan.domain.PlanNormalizer;
import io.agentteams.taskboard.task.application.BoardAdmission;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.domain.WriteScopes;
import io.agentteams.taskboard.task.web.TaskView;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** {@code /api/v1/teams/{teamId}/plans}: members import plans, the team's owner approves them. */
@RestController
@RequestMapping("/api/v1/teams/{teamId}/plans")
public class PlanController {

  private final PlanCommands plans;
  private final BoardAdmission admission;

  public PlanController(PlanCommands plans, BoardAdmission admission) {
    this.plans = plans;
    this.admission = admission;
  }

  @PostMapping
  public Mono<ResponseEntity<ImportView>> importPlan(
      Caller caller, @PathVariable UUID teamId, @RequestBody Mono<ImportRequest> body) {
    return admission
        .admit(caller, teamId)
        .then(body)
        .flatMap(
            request -> {
              if (request.tasks() == null) {
                throw WebProblems.invalid("missing-field", "tasks is required");
              }
              List<PlanNormalizer.Item> items = new ArrayList<>();
              for (TaskRequest task : request.tasks()) {
                if (task == null) {
                  throw WebProblems.invalid("missing-field", "a plan task must not be null");
                }
                List<String> dependencies = new ArrayList<>();
                if (task.dependencies() != null) {
                  dependencies.addAll(task.dependencies());
                }
                if (task.dependsOn() != null) {
                  dependencies.addAll(task.dependsOn());
                }
                items.add(
                    new PlanNormalizer.Item(
                        task.id(),
                        task.title(),
                        task.description(),
                        dependencies,
                        task.writeScopes() == null ? List.of() : task.writeScopes(),
                        task.assignee()));
              }
              return plans
                  .importPlan(caller, teamId, items, Boolean.TRUE.equals(request.requireApproval()))
                  .map(
                      imported ->
                          ResponseEntity.created(
                                  URI.create(
                                      "/api/v1/teams/" + teamId + "/plans/" + imported.plan().id()))
                              .body(
                                  ImportView.of(
                                      imported.plan(),
                                      imported.tasks().stream().map(TaskView::of).toList(),
                                      imported.warnings())));
            });
  }

  @GetMapping("/{planId}")
  public Mono<PlanView> get(Caller caller, @PathVariable UUID teamId, @PathVariable UUID planId) {
    return plans.find(caller, teamId, planId).map(PlanView::of);
  }

  @PostMapping("/{planId}/approve")
  public Mono<ApprovalView> approve(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable UUID planId,
      @RequestBody Mono<ApproveRequest> body) {
    return admission
        .admit(caller, teamId)
        .then(body)
        .flatMap(
            request -> {
              if (request.expectedRevision() == null) {
                throw WebProblems.invalid(
                    "missing-expected-revision", "expected_revision is required for every change");
              }
              return plans
                  .approve(caller, teamId, planId, request.expectedRevision())
                  .map(
                      approved ->
                          new ApprovalView(
                              PlanView.of(approved.plan()),
                              approved.tasks().stream().map(TaskView::of).toList(),
                              approved.nowReady().stream().map(TaskId::value).toList()));
            });
  }

  /** A plan to import; tasks may omit ids, and {@code depends_on} is read like dependencies. */
  public record ImportRequest(
      @Nullable List<TaskRequest> tasks, @Nullable Boolean requireApproval) {}

  /** One task of a plan as a planner wrote it. */
  public record TaskRequest(
      @Nullable String id,
      @Nullable String title,
      @Nullable String description,
      @Nullable List<String> dependencies,
      @Nullable List<String> dependsOn,
      @Nullable List<String> writeScopes,
      @Nullable String assignee) {}

  /** Approves a held plan. */
  public record ApproveRequest(@Nullable Long expectedRevision) {}

  /** A plan as the API shows it. */
  public record PlanView(
      UUID id,
      String status,
      long revision,
      String importedBy,
      @Nullable String approvedBy,
      List<EntryView> tasks,
      List<RenameView> renamed,
      List<String> generated,
      Instant createdAt,
      @Nullable Instant approvedAt) {
    static PlanView of(Plan plan) {
      return new PlanView(
          plan.id(),
          plan.status().wire(),
          plan.revision(),
          plan.importedBy(),
          plan.approvedBy(),
          plan.tasks().stream().map(e -> new EntryView(e.key(), e.taskId().value())).toList(),
          plan.renamed().stream()
              .map(r -> new RenameView(r.original(), r.key(), r.reason().wire()))
              .toList(),
          plan.generated(),
          plan.createdAt(),
          plan.approvedAt());
    }
  }

  /** A plan key and the task id it received. */
  public record EntryView(String key, long taskId) {}

  /** An id normalisation changed, and why. */
  public record RenameView(String original, String key, String reason) {}

  /** A write-scope overlap warning. */
  public record WarningView(
      String kind, long taskId, String scope, long otherTaskId, String otherScope) {}

  /** The answer to an import. */
  public record ImportView(PlanView plan, List<TaskView> tasks, List<WarningView> warnings) {
    static ImportView of(Plan plan, List<TaskView> tasks, List<WriteScopes.Overlap> warnings) {
      return new ImportView(
          PlanView.of(plan),
          tasks,
          warnings.stream()
              .map(
                  o ->
                      new WarningView(
                          "write_scope_overlap",
                          o.task().value(),
                          o.scope().path(),
                          o.otherTask().value(),
                          o.otherScope().path()))
              .toList());
    }
  }

  /** The answer to an approval. */
  public record ApprovalView(PlanView plan, List<TaskView> tasks, List<Long> nowReady) {}
}
