package io.agentteams.scheduler.run.application;

import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.run.domain.InvalidPlan;
import io.agentteams.scheduler.run.domain.JobOrder;
import io.agentteams.scheduler.run.domain.Plan;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunOptions;
import io.agentteams.scheduler.run.domain.RunState;
import io.agentteams.scheduler.run.persistence.RunStore;
import io.agentteams.scheduler.run.planning.PlanReader;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Moves runs on as their jobs end. It is called for every {@code JobResultRecorded} of the
 * scheduler's own topic, inside the consumer's transaction that also marks the event processed: a
 * redelivered result changes nothing, and a service stopped mid-step leaves the step undone and
 * redone on the next delivery, so each task's job is created exactly once.
 */
@Service
public class RunProgress {

  private final RunStore runs;
  private final JobStore jobs;
  private final Rosters rosters;
  private final RunSteps steps;
  private final TransactionalOperator transactions;
  private final int maxTasks;
  private final Clock clock;

  RunProgress(
      RunStore runs,
      JobStore jobs,
      Rosters rosters,
      RunSteps steps,
      TransactionalOperator transactions,
      SchedulerProperties properties,
      Clock clock) {
    this.runs = runs;
    this.jobs = jobs;
    this.rosters = rosters;
    this.steps = steps;
    this.transactions = transactions;
    this.maxTasks = properties.runs().maxTasks();
    this.clock = clock;
  }

  /** A job ended: if a run created it, the run takes its result. */
  public Mono<Void> on(JobResultRecorded event) {
    UUID jobId = UUID.fromString(event.jobId());
    return transactions.transactional(
        runs.runJob(jobId)
            .flatMap(
                role ->
                    runs.lock(role.runId())
                        .filter(run -> !run.state().finished())
                        .flatMap(
                            run ->
                                jobs.find(jobId)
                                    .zipWith(rosters.find(run.teamId()))
                                    .flatMap(
                                        found -> advance(run, role, found.getT1(), found.getT2()))))
            .then());
  }

  private Mono<Run> advance(Run run, RunStore.RunJob role, Job job, Roster roster) {
    Instant now = clock.instant();
    boolean completed = job.state() == JobState.COMPLETED;
    String text = job.outcome() == null ? "" : job.outcome().text();
    List<String> members = RunCommands.members(roster);
    List<JobOrder> orders =
        switch (role.role()) {
          case PLAN -> planned(run, completed, text, members, now);
          case TASK ->
              run.taskEnded(Objects.requireNonNull(role.taskKey()), completed, text, members, now);
          case SYNTHESIS -> {
            run.synthesised(completed, text, now);
            yield List.of();
          }
        };
    return steps.finish(run, orders, roster, now);
  }

  private List<JobOrder> planned(
      Run run, boolean completed, String answer, List<String> members, Instant now) {
    if (run.state() != RunState.PLANNING) {
      return List.of();
    }
    if (!completed) {
      run.plannerFailed(answer, now);
      return List.of();
    }
    PlanReader.Reading reading = PlanReader.read(answer, members);
    if (reading instanceof PlanReader.Read read) {
      try {
        return run.planned(
            Plan.of(read.tasks(), new HashSet<>(members), maxTasks), false, members, now);
      } catch (InvalidPlan invalid) {
        run.planRefused(invalid.reason(), now);
        return List.of();
      }
    }
    String why = ((PlanReader.Unreadable) reading).why();
    if (run.options().onUnreadablePlan() == RunOptions.UnreadablePlan.FALLBACK) {
      return run.planned(Plan.fallback(members, run.objective()), true, members, now);
    }
    run.planRefused("no plan could be read from the planner's answer (" + why + ")", now);
    return List.of();
  }
}
