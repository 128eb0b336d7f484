package io.agentteams.scheduler.run.domain;

import static io.agentteams.scheduler.run.domain.PlanTest.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RunTest {

  private static final List<String> MEMBERS = List.of("lead", "a", "b", "c");
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  /** a and b first (in parallel), then c after both, then d after c. */
  private static final List<PlanTask> DIAMOND =
      List.of(task("t1", "a"), task("t2", "b"), task("t3", "c", "t1", "t2"), task("t4", "a", "t3"));

  @Test
  void dispatchesReadyTasksInRoundsInDependencyOrderThenSynthesises() {
    Run run = started(options(10, 4, false, false));

    List<JobOrder> first = planned(run, DIAMOND);
    assertThat(first).extracting(JobOrder::taskKey).containsExactly("t1", "t2");
    assertThat(run.round()).isEqualTo(1);

    assertThat(run.taskEnded("t1", true, "one", MEMBERS, NOW)).isEmpty();
    List<JobOrder> second = dispatch(run, run.taskEnded("t2", true, "two", MEMBERS, NOW));
    assertThat(second).extracting(JobOrder::taskKey).containsExactly("t3");
    assertThat(second.get(0).input()).contains("[t1] by a: one", "[t2] by b: two");

    List<JobOrder> third = dispatch(run, run.taskEnded("t3", true, "three", MEMBERS, NOW));
    assertThat(third).extracting(JobOrder::taskKey).containsExactly("t4");

    List<JobOrder> synthesis = dispatch(run, run.taskEnded("t4", true, "four", MEMBERS, NOW));
    assertThat(synthesis)
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.role()).isEqualTo(JobOrder.Role.SYNTHESIS);
              assertThat(o.member()).isEqualTo("lead");
              assertThat(o.input()).contains("[t1]", "one", "[t4]", "four");
            });
    assertThat(run.state()).isEqualTo(RunState.SYNTHESISING);

    run.synthesised(true, "all done", NOW);
    assertThat(run.state()).isEqualTo(RunState.COMPLETED);
    assertThat(run.result()).isEqualTo("all done");
    assertThat(run.entries())
        .extracting(RunEntry::kind)
        .containsSubsequence(
            "run.started",
            "plan.ready",
            "round.started",
            "task.assigned",
            "task.result",
            "synthesis.started",
            "run.complete");
  }

  @Test
  void concurrencyLimitsARoundAndLeavesTheRestForTheNext() {
    Run run = started(options(10, 1, false, false));

    assertThat(planned(run, DIAMOND)).extracting(JobOrder::taskKey).containsExactly("t1");
    assertThat(dispatch(run, run.taskEnded("t1", true, "one", MEMBERS, NOW)))
        .extracting(JobOrder::taskKey)
        .containsExactly("t2");
    assertThat(run.round()).isEqualTo(2);
  }

  @Test
  void aFailedTaskFailsTheRunAndCancelsItsRunningJobsUnlessTheRunContinues() {
    Run stops = started(options(10, 4, false, false));
    planned(stops, DIAMOND);

    assertThat(stops.taskEnded("t1", false, "boom", MEMBERS, NOW)).isEmpty();

    assertThat(stops.state()).isEqualTo(RunState.FAILED);
    assertThat(stops.reason()).isEqualTo("task 't1' failed: boom");
    assertThat(stops.cancellations()).hasSize(1);
    assertThat(states(stops)).containsExactly("failed", "cancelled", "blocked", "blocked");

    Run goesOn = started(options(10, 4, true, false));
    planned(goesOn, DIAMOND);
    goesOn.taskEnded("t1", false, "boom", MEMBERS, NOW);
    List<JobOrder> next = goesOn.taskEnded("t2", true, "two", MEMBERS, NOW);

    assertThat(next).singleElement().extracting(JobOrder::role).isEqualTo(JobOrder.Role.SYNTHESIS);
    assertThat(states(goesOn)).containsExactly("failed", "completed", "blocked", "blocked");
    assertThat(goesOn.tasks().get(2).error()).isEqualTo("dependency 't1' did not complete");
    assertThat(next.get(0).input()).contains("[t1]", "failed: boom");
  }

  @Test
  void maxRoundsBlocksWhatRemainsWithThatReasonAndSynthesises() {
    Run run = started(options(1, 4, false, false));
    planned(run, DIAMOND);
    run.taskEnded("t1", true, "one", MEMBERS, NOW);
    List<JobOrder> next = run.taskEnded("t2", true, "two", MEMBERS, NOW);

    assertThat(next).singleElement().extracting(JobOrder::role).isEqualTo(JobOrder.Role.SYNTHESIS);
    assertThat(run.tasks().subList(2, 4))
        .allSatisfy(
            t -> {
              assertThat(t.state()).isEqualTo(TaskState.BLOCKED);
              assertThat(t.error()).isEqualTo("max_rounds (1) reached");
            });
  }

  @Test
  void approvalHoldsDispatchAndRejectionEndsTheRunWithTheReason() {
    Run approved = started(options(10, 4, false, true));
    assertThat(planned(approved, DIAMOND)).isEmpty();
    assertThat(approved.state()).isEqualTo(RunState.AWAITING_APPROVAL);
    assertThat(approved.approve(MEMBERS, NOW))
        .extracting(JobOrder::taskKey)
        .containsExactly("t1", "t2");

    Run rejected = started(options(10, 4, false, true));
    planned(rejected, DIAMOND);
    rejected.reject("too broad", NOW);
    assertThat(rejected.state()).isEqualTo(RunState.FAILED);
    assertThat(rejected.reason()).isEqualTo("plan rejected: too broad");
    assertThatThrownBy(() -> rejected.approve(MEMBERS, NOW)).isInstanceOf(DomainFailure.class);
  }

  @Test
  void cancellingListsEveryUnfinishedJobAndALateResultChangesNothing() {
    Run run = started(options(10, 4, false, false));
    dispatch(run, planned(run, DIAMOND));

    run.cancel(NOW);

    assertThat(run.state()).isEqualTo(RunState.CANCELLED);
    assertThat(run.cancellations()).hasSize(2);
    assertThat(run.taskEnded("t1", true, "late", MEMBERS, NOW)).isEmpty();
    assertThat(states(run)).containsOnly("cancelled");
    assertThatThrownBy(() -> run.cancel(NOW)).isInstanceOf(DomainFailure.class);
  }

  private static Run started(RunOptions options) {
    Run run = Run.start(UUID.randomUUID(), UUID.randomUUID(), "owner", "ship it", options, NOW);
    run.dispatched(run.plannerOrder(MEMBERS), UUID.randomUUID(), NOW);
    return run;
  }

  private static List<JobOrder> planned(Run run, List<PlanTask> tasks) {
    run.submitted(tasks.size(), false, NOW);
    return dispatch(run, run.planned(new Plan(tasks), MEMBERS, NOW));
  }

  private static List<JobOrder> dispatch(Run run, List<JobOrder> orders) {
    orders.forEach(order -> run.dispatched(order, UUID.randomUUID(), NOW));
    return orders;
  }

  private static List<String> states(Run run) {
    return run.tasks().stream().map(t -> t.state().wire()).toList();
  }

  private static RunOptions options(
      int maxRounds, int concurrency, boolean continueOnError, boolean approval) {
    return new RunOptions(
        "lead",
        "lead",
        maxRounds,
        concurrency,
        continueOnError,
        approval,
        RunOptions.UnreadablePlan.FAIL);
  }
}
