package io.agentteams.scheduler.run.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.RunPlanSubmitted;
import io.agentteams.contracts.scheduler.RunProgressed;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.run.domain.Run;
import io.agentteams.scheduler.run.domain.RunEntry;
import io.agentteams.scheduler.run.domain.WrittenTask;
import java.util.List;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Announces a run's timeline entries ({@code RunProgressed}) and hands its plan to the task board
 * ({@code RunPlanSubmitted}) through the outbox, in the transaction that recorded them, keyed by
 * team and sequenced by the run's entry sequence.
 */
@Component
public class RunEvents {

  private final Outbox outbox;

  public RunEvents(Outbox outbox) {
    this.outbox = outbox;
  }

  /** The entries the run recorded since it was loaded. */
  public Mono<Void> recorded(Run run) {
    List<Outbox.Pending> pending =
        run.entries().stream()
            .map(
                entry ->
                    new Outbox.Pending(
                        run.teamId().toString(),
                        run.ownerId(),
                        entry.sequence(),
                        payload(run, entry)))
            .toList();
    return pending.isEmpty()
        ? Mono.empty()
        : outbox.appendAll(Topics.SCHEDULER_EVENTS, pending).then();
  }

  /**
   * Hands the run's plan to the task board ({@code RunPlanSubmitted}), in the transaction that
   * recorded the planner's answer; sequenced after the entry that says so.
   */
  public Mono<Void> planSubmitted(Run run, List<WrittenTask> tasks) {
    return outbox
        .append(
            Topics.SCHEDULER_EVENTS,
            run.teamId().toString(),
            run.ownerId(),
            run.stored().sequence(),
            new RunPlanSubmitted(
                run.id().toString(),
                run.teamId().toString(),
                run.options().planner(),
                run.options().requirePlanApproval(),
                tasks.stream()
                    .map(
                        t ->
                            new RunPlanSubmitted.Item(
                                t.id(), t.assignee(), t.title(), t.instruction(), t.dependencies()))
                    .toList()))
        .then();
  }

  private static RunProgressed payload(Run run, RunEntry entry) {
    return new RunProgressed(
        run.id().toString(),
        run.teamId().toString(),
        entry.kind(),
        entry.state().wire(),
        entry.round(),
        entry.taskKey(),
        entry.member(),
        entry.jobId() == null ? null : entry.jobId().toString(),
        entry.detail(),
        entry.sequence());
  }
}
