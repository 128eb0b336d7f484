package io.agentteams.scheduler.run.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.web.BudgetBody;
import io.agentteams.scheduler.budget.web.SpendController;
import io.agentteams.scheduler.job.web.JobView;
import io.agentteams.scheduler.run.application.RunCommands;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1/teams/{teamId}/runs}: the owner starts a run on an objective, follows it, approves
 * or rejects its plan, cancels it, and exports its whole record.
 */
@RestController
public class RunController {

  private static final int MAX_PAGE = 100;

  private final RunCommands commands;
  private final JsonMapper json;

  public RunController(RunCommands commands, JsonMapper json) {
    this.commands = commands;
    this.json = json;
  }

  /** Starts a run (201), or returns the run an earlier request with the key started (200). */
  @PostMapping("/api/v1/teams/{teamId}/runs")
  public Mono<ResponseEntity<RunView>> start(
      Caller.Owner owner, @PathVariable UUID teamId, @RequestBody NewRunBody body) {
    return commands
        .start(owner, teamId, body.toNewRun())
        .map(
            started ->
                ResponseEntity.status(started.replayed() ? HttpStatus.OK : HttpStatus.CREATED)
                    .body(RunView.of(started.run())));
  }

  @GetMapping("/api/v1/teams/{teamId}/runs")
  public Mono<RunPage> list(
      Caller.Owner owner,
      @PathVariable UUID teamId,
      @RequestParam(name = "limit", required = false) @Nullable Integer limit) {
    int size = limit == null ? 20 : Math.max(1, Math.min(MAX_PAGE, limit));
    return commands
        .list(owner, teamId, size)
        .map(runs -> new RunPage(runs.stream().map(RunView::of).toList()));
  }

  @GetMapping("/api/v1/teams/{teamId}/runs/{runId}")
  public Mono<RunView> get(
      Caller.Owner owner, @PathVariable UUID teamId, @PathVariable UUID runId) {
    return commands.find(owner, teamId, runId).map(RunView::of);
  }

  /** Approves the plan of a run awaiting approval: its first round is dispatched. */
  @PostMapping("/api/v1/teams/{teamId}/runs/{runId}/approve")
  public Mono<RunView> approve(
      Caller.Owner owner, @PathVariable UUID teamId, @PathVariable UUID runId) {
    return commands.approve(owner, teamId, runId).map(RunView::of);
  }

  /** Rejects the plan of a run awaiting approval: the run fails with the reason. */
  @PostMapping("/api/v1/teams/{teamId}/runs/{runId}/reject")
  public Mono<RunView> reject(
      Caller.Owner owner,
      @PathVariable UUID teamId,
      @PathVariable UUID runId,
      @RequestBody Rejection body) {
    return commands.reject(owner, teamId, runId, body.reason()).map(RunView::of);
  }

  /** Cancels the run and its unfinished jobs. */
  @PostMapping("/api/v1/teams/{teamId}/runs/{runId}/cancel")
  public Mono<RunView> cancel(
      Caller.Owner owner, @PathVariable UUID teamId, @PathVariable UUID runId) {
    return commands.cancel(owner, teamId, runId).map(RunView::of);
  }

  /**
   * The run's whole record as one document: the run, its timeline, every job it created (each with
   * its usage: input and output tokens, model, cost) and what the run spent, in all and per model.
   */
  @GetMapping("/api/v1/teams/{teamId}/runs/{runId}/export")
  public Mono<RunExport> export(
      Caller.Owner owner, @PathVariable UUID teamId, @PathVariable UUID runId) {
    return commands
        .export(owner, teamId, runId)
        .map(
            record ->
                new RunExport(
                    RunView.of(record.run()),
                    record.timeline().stream().map(RunView.EntryView::of).toList(),
                    record.jobs().stream()
                        .map(
                            j ->
                                new RunJobView(
                                    j.role().role().wire(),
                                    j.role().taskKey(),
                                    JobView.of(j.job(), json)))
                        .toList(),
                    SpendController.LineView.of(record.spend(), record.spendByModel())));
  }

  /** Why the plan is rejected. */
  public record Rejection(@Nullable String reason) {}

  /** A page of runs, newest first. */
  public record RunPage(List<RunView> runs) {}

  /** A run's whole record. */
  public record RunExport(
      RunView run,
      List<RunView.EntryView> timeline,
      List<RunJobView> jobs,
      SpendController.LineView spend) {}

  /** One of the run's jobs and what it was for. */
  public record RunJobView(String role, @Nullable String taskId, JobView job) {}

  /**
   * A run to start, as the request sends it; what it leaves out takes the defaults.
   *
   * @param objective what the team is asked to achieve
   * @param planner the member asked for the plan (default: the lead)
   * @param synthesiser the member asked for the result (default: the planner)
   * @param maxRounds rounds of dispatch
   * @param concurrency tasks dispatched at once in a round
   * @param continueOnMemberError whether a failed task lets the run go on
   * @param requirePlanApproval whether the plan waits for the owner's approval
   * @param onUnreadablePlan {@code fail} (default) or {@code fallback}
   * @param idempotencyKey makes retries safe: the same key returns the same run
   * @param budget the run's budget: tokens, cost, wall time and hand-off hops
   */
  public record NewRunBody(
      @Nullable String objective,
      @Nullable String planner,
      @Nullable String synthesiser,
      @Nullable Integer maxRounds,
      @Nullable Integer concurrency,
      @Nullable Boolean continueOnMemberError,
      @Nullable Boolean requirePlanApproval,
      @Nullable String onUnreadablePlan,
      @Nullable String idempotencyKey,
      @Nullable BudgetBody budget) {

    RunCommands.NewRun toNewRun() {
      return new RunCommands.NewRun(
          objective,
          planner,
          synthesiser,
          maxRounds,
          concurrency,
          continueOnMemberError,
          requirePlanApproval,
          onUnreadablePlan,
          idempotencyKey,
          budget == null ? Budget.NONE : budget.toBudget());
    }
  }
}
