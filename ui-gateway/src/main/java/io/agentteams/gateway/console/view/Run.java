package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A team run as the API shows it: options, state, the plan's tasks and the result. */
public record Run(
    UUID id,
    UUID teamId,
    String objective,
    String state,
    int round,
    Options options,
    boolean planFallback,
    @Nullable UUID plannerJobId,
    @Nullable UUID synthesisJobId,
    List<RunTask> tasks,
    @Nullable String result,
    @Nullable String reason,
    Instant createdAt,
    Instant updatedAt,
    @Nullable Instant finishedAt) {

  public Run {
    tasks = tasks == null ? List.of() : List.copyOf(tasks);
  }

  /** How the run is run. */
  public record Options(
      String planner,
      String synthesiser,
      int maxRounds,
      int concurrency,
      boolean continueOnMemberError,
      boolean requirePlanApproval,
      String onUnreadablePlan) {}

  /** One task of the plan and how it went. */
  public record RunTask(
      String id,
      String assignee,
      String title,
      String instruction,
      List<String> dependencies,
      String state,
      int round,
      @Nullable UUID jobId,
      @Nullable String result,
      @Nullable String error) {

    public RunTask {
      dependencies = dependencies == null ? List.of() : List.copyOf(dependencies);
    }
  }

  /** Whether the run has ended. */
  public boolean finished() {
    return switch (state) {
      case "completed", "failed", "cancelled" -> true;
      default -> false;
    };
  }

  /** Whether the plan waits for the owner. */
  public boolean awaitingApproval() {
    return "awaiting_approval".equals(state);
  }

  /** The state as a person reads it. */
  public String stateLabel() {
    return switch (state) {
      case "awaiting_approval" -> "awaiting approval";
      default -> state;
    };
  }

  /** A version that changes whenever the run does, for live refreshes. */
  public String version() {
    return state + ":" + updatedAt;
  }
}
