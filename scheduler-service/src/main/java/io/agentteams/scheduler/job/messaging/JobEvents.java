package io.agentteams.scheduler.job.messaging;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobInputRequired;
import io.agentteams.contracts.scheduler.JobRequested;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.contracts.scheduler.JobStateChanged;
import io.agentteams.contracts.scheduler.RuntimeRefusedAccess;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.Outcome;
import io.agentteams.scheduler.job.domain.Question;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Announces job changes through the outbox, inside the transaction of the change, keyed by team id
 * and sequenced by the job's revision.
 */
@Component
public class JobEvents {

  private final Outbox outbox;

  public JobEvents(Outbox outbox) {
    this.outbox = outbox;
  }

  /** A job was accepted: {@code JobRequested} and its first {@code JobStateChanged}. */
  public Mono<Void> created(Job job) {
    JobSpec spec = job.spec();
    JobRequested requested =
        new JobRequested(
            spec.id().toString(),
            spec.teamId().toString(),
            spec.target().name(),
            spec.kind().wire(),
            spec.requester(),
            text(spec.parentJobId()),
            spec.chainId().toString(),
            spec.target().conversationId(),
            spec.input(),
            spec.createdAt().toString(),
            job.revision());
    return append(job, requested).then(changed(job, job.created()));
  }

  /**
   * A job changed state: {@code JobStateChanged}, plus {@code JobInputRequired} when it asked a
   * question and {@code JobResultRecorded} when it finished.
   */
  public Mono<Void> changed(Job job, JobChange change) {
    return outbox.appendAll(Topics.SCHEDULER_EVENTS, pending(job, change)).then();
  }

  /**
   * Many jobs changed state in one transaction (an admission pass): their events in one outbox
   * statement, in the order given.
   */
  public Mono<Void> changedAll(List<Job> jobs, List<JobChange> changes) {
    List<Outbox.Pending> all = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      all.addAll(pending(jobs.get(i), changes.get(i)));
    }
    return outbox.appendAll(Topics.SCHEDULER_EVENTS, all).then();
  }

  private static List<Outbox.Pending> pending(Job job, JobChange change) {
    JobSpec spec = job.spec();
    List<EventPayload> payloads = new ArrayList<>();
    payloads.add(
        new JobStateChanged(
            spec.id().toString(),
            spec.teamId().toString(),
            spec.target().name(),
            spec.kind().wire(),
            change.to().wire(),
            change.from() == null ? null : change.from().wire(),
            change.revision()));
    if (change.to() == JobState.WAITING_INPUT) {
      Question question = Objects.requireNonNull(job.question());
      payloads.add(
          new JobInputRequired(
              spec.id().toString(),
              spec.teamId().toString(),
              spec.target().name(),
              question.kind().wire(),
              question.content(),
              change.revision()));
    }
    if (change.to().finished()) {
      payloads.add(result(job));
    }
    return payloads.stream()
        .map(
            payload ->
                new Outbox.Pending(
                    spec.teamId().toString(), spec.ownerId(), job.revision(), payload))
        .toList();
  }

  /**
   * The job's push runtime refused access: {@code RuntimeRefusedAccess}, so that team-service
   * disconnects the team with the reason.
   */
  public Mono<Void> runtimeRefusedAccess(Job job, String reason) {
    JobSpec spec = job.spec();
    return append(
            job,
            new RuntimeRefusedAccess(
                spec.id().toString(),
                spec.teamId().toString(),
                spec.target().name(),
                spec.target().agentId(),
                reason,
                job.revision()))
        .then();
  }

  private static JobResultRecorded result(Job job) {
    JobSpec spec = job.spec();
    Outcome outcome = job.outcome();
    return new JobResultRecorded(
        spec.id().toString(),
        spec.teamId().toString(),
        spec.target().name(),
        spec.requester(),
        job.state().wire(),
        text(spec.parentJobId()),
        spec.target().conversationId(),
        job.runId(),
        spec.input(),
        outcome == null ? "" : outcome.text(),
        outcome != null && outcome.truncated(),
        spec.createdAt().toString(),
        text(job.startedAt()),
        Objects.requireNonNull(job.finishedAt()).toString());
  }

  private Mono<Void> append(Job job, io.agentteams.contracts.EventPayload payload) {
    return outbox
        .append(
            Topics.SCHEDULER_EVENTS,
            job.spec().teamId().toString(),
            job.spec().ownerId(),
            job.revision(),
            payload)
        .then();
  }

  private static @Nullable String text(@Nullable UUID id) {
    return id == null ? null : id.toString();
  }

  private static @Nullable String text(@Nullable Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
