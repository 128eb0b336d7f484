package io.agentteams.sdk.worker;

import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.tools.MemberTools;
import io.agentteams.sdk.worker.JobReports.Ending;
import io.agentteams.sdk.worker.JobReports.Outcome;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * The jobs a worker holds: decides what each offer needs (run it, carry on under a new lease, or
 * answer a reconciliation from the {@link JobJournal}), runs the handler, heartbeats each lease and
 * reports how each job ended.
 */
final class JobsInHand {

  private final HttpTransport http;
  private final String workerId;
  private final JobHandler handler;
  private final JobJournal journal;
  private final WorkerListener listener;
  private final JobReports reports;
  private final Executor runners;
  private final Executor reporters;
  private final BooleanSupplier stopping;
  private final Map<UUID, Execution> running = new ConcurrentHashMap<>();
  private final Set<UUID> received = ConcurrentHashMap.newKeySet();

  JobsInHand(
      HttpTransport http,
      String workerId,
      JobHandler handler,
      JobJournal journal,
      WorkerListener listener,
      JobReports reports,
      Executor runners,
      Executor reporters,
      BooleanSupplier stopping) {
    this.http = http;
    this.workerId = workerId;
    this.handler = handler;
    this.journal = journal;
    this.listener = listener;
    this.reports = reports;
    this.runners = runners;
    this.reporters = reporters;
    this.stopping = stopping;
  }

  Set<UUID> ids() {
    return Set.copyOf(running.keySet());
  }

  boolean isEmpty() {
    return running.isEmpty();
  }

  String workerId() {
    return workerId;
  }

  boolean stopping() {
    return stopping.getAsBoolean();
  }

  MemberTools memberTools(UUID teamId, TokenSupplier memberToken) {
    return new MemberTools(teamId, http.withTokens(memberToken));
  }

  // ---- offers ----

  void accept(JobOffer offer) {
    UUID jobId = offer.jobId();
    boolean seenBefore = !received.add(jobId);
    Execution here = running.get(jobId);
    if (here != null) {
      // Its lease lapsed while it ran here (a gateway restart, say): carry on under the new one.
      here.takeOver(offer);
      if (here.result() == null) {
        reporters.execute(() -> reports.report(here, "started", Map.of(), false));
      }
      return;
    }
    Optional<JobJournal.Entry> record = journal.find(jobId);
    if (record.isPresent() && record.get().result() != null) {
      JobResult known = Objects.requireNonNull(record.get().result());
      reporters.execute(() -> settleFromRecord(offer, known));
      return;
    }
    if (record.isPresent()) {
      unknownOutcome(
          offer,
          "interrupted: worker "
              + workerId
              + " stopped while running the job, so its outcome is unknown");
      return;
    }
    // Safe to run: a plain offer; a job no runtime ever started (runtimes report started before
    // they act, as this worker does); or this worker's own lapsed lease on an offer it never got.
    boolean neverActedOn =
        !offer.reconcile()
            || !offer.previouslyStarted()
            || (workerId.equals(offer.previousWorkerId()) && !seenBefore);
    if (neverActedOn) {
      run(offer, false);
      return;
    }
    unknownOutcome(
        offer,
        "outcome unknown: the lease of "
            + (offer.previousWorkerId() == null ? "an earlier offer" : offer.previousWorkerId())
            + " lapsed and worker "
            + workerId
            + " has no record of the job");
  }

  /**
   * The team's lead interrupted a job this worker holds: its handler sees {@link
   * JobContext#interrupted()} (and its {@link JobContext#onInterrupt} actions run), and nothing
   * more is reported for it. An interrupt for a job not held here (it ended meanwhile) needs
   * nothing.
   */
  void interrupt(UUID jobId) {
    Execution execution = running.get(jobId);
    if (execution != null && execution.interrupt()) {
      listener.interrupted(jobId);
    }
  }

  /** A job whose earlier run's outcome nobody here knows: the handler's policy decides. */
  private void unknownOutcome(JobOffer offer, String reason) {
    if (handler.reconcilePolicy() == ReconcilePolicy.RESUME) {
      run(offer, true);
      return;
    }
    Execution settling = new Execution(offer, false, this);
    running.put(offer.jobId(), settling);
    reporters.execute(
        () ->
            settle(
                settling,
                JobResult.failed(reason + "; not run again", Usage.NONE),
                /* fromRecord= */ true));
  }

  private void settleFromRecord(JobOffer offer, JobResult known) {
    Execution settling = new Execution(offer, false, this);
    running.put(offer.jobId(), settling);
    settle(settling, known, true);
  }

  // ---- running a job ----

  private void run(JobOffer offer, boolean reconciling) {
    Execution execution = new Execution(offer, reconciling, this);
    running.put(offer.jobId(), execution);
    runners.execute(() -> execute(execution));
  }

  private void execute(Execution execution) {
    UUID jobId = execution.jobId();
    journal.started(jobId);
    Outcome started = reports.report(execution, "started", Map.of(), true);
    if (started != Outcome.DONE) {
      // Another runtime holds the job now, it ended (e.g. cancelled) before it could start, the
      // report was refused for good, or the worker stops: the handler never acts on it here.
      running.remove(jobId, execution);
      journal.settled(jobId);
      if (started != Outcome.GAVE_UP) {
        received.remove(jobId);
      }
      return;
    }
    JobResult result;
    try {
      result = handler.handle(execution);
      if (result == null) {
        result = JobResult.failed("the handler returned no result", Usage.NONE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result = JobResult.failed("interrupted", Usage.NONE);
    } catch (Exception | AssertionError e) {
      result = JobResult.failed(describe(e), Usage.NONE);
    }
    listener.handled(jobId, result);
    execution.acknowledgeMessages();
    if (execution.abandoned()) {
      return;
    }
    if (execution.interrupted()) {
      // The job ended interrupted at the scheduler: what the handler returned is not reported.
      running.remove(jobId, execution);
      journal.settled(jobId);
      received.remove(jobId);
      return;
    }
    journal.finished(jobId, result);
    settle(execution, result, false);
  }

  /** Reports how a job ended until the scheduler has it, its lease is replaced, or it ended. */
  private void settle(Execution execution, JobResult result, boolean fromRecord) {
    UUID jobId = execution.jobId();
    execution.finished(result);
    Ending ending = Ending.of(result);
    Outcome outcome = reports.report(execution, ending.type(), ending.body(), true);
    running.remove(jobId, execution);
    if (outcome == Outcome.DONE || outcome == Outcome.ENDED) {
      journal.settled(jobId);
      if (!(result instanceof JobResult.InputRequired)) {
        // The job has ended: no offer of it can come again, so nothing need remember it.
        received.remove(jobId);
      }
    }
    // STALE: the journal keeps the outcome; the reconciliation offer that follows reports it.
    if (fromRecord && outcome == Outcome.STALE) {
      listener.reportFailed(
          jobId, ending.type(), new IllegalStateException("lease replaced"), false);
    }
  }

  /**
   * Reports a running job's usage so far at once, as a heartbeat. False when the job may not go on:
   * the scheduler ended it (a budget with no room for the usage stops it at this report, and the
   * handler is then told it is cancelled) or the report did not get through.
   */
  boolean reportUsage(Execution execution, Usage soFar) {
    Outcome outcome =
        reports.report(execution, "heartbeat", Map.of("usage", JobReports.usage(soFar)), true);
    return outcome == Outcome.DONE && !execution.cancelled();
  }

  /** Sends the heartbeats due now, each on a reporter thread. */
  void heartbeat(Instant now) {
    for (Execution execution : running.values()) {
      if (execution.heartbeatDue(now)) {
        try {
          reporters.execute(() -> reports.report(execution, "heartbeat", Map.of(), false));
        } catch (RuntimeException e) {
          return; // shutting down
        }
      }
    }
  }

  // ---- stopping ----

  /** Gives back ({@code released}) the jobs still running when the drain ran out. */
  void releaseAll() {
    for (Execution left : List.copyOf(running.values())) {
      left.abandon();
      if (left.result() == null) {
        reports.report(left, "released", Map.of(), false);
      }
    }
  }

  /** Gives up every job without a word, as if the process died. */
  void abandonAll() {
    running.values().forEach(Execution::abandon);
  }

  private static String describe(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
