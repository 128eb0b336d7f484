package io.agentteams.sdk.worker;

import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.Backoff;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.problem.AgentTeamsException;
import io.agentteams.sdk.problem.ApiException;
import io.agentteams.sdk.problem.ConflictException;
import io.agentteams.sdk.streams.ServerSentEvent;
import io.agentteams.sdk.streams.SseReader;
import io.agentteams.sdk.tools.MemberTools;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * An agent worker of the {@code pull} runtime: holds its agent's job stream and runs the jobs it is
 * offered with a {@link JobHandler}.
 *
 * <ul>
 *   <li>It names itself ({@code worker_id}) and asks for at most {@code maxJobs} jobs at once; the
 *       scheduler offers no more while that many of its leases are live.
 *   <li>Each job's lease is renewed by heartbeats (every third of the lease) while the handler
 *       runs; their answers bring fresh member tokens.
 *   <li>It reports {@code started}, then {@code completed}, {@code failed} or {@code
 *       input_required} with the run's {@link Usage}; a report that cannot get through is retried
 *       with back-off until it does or the lease is replaced.
 *   <li>When the stream drops or the gateway restarts it reconnects with back-off and jitter;
 *       offers are claimed, not replayed, so nothing is missed: a job whose lease lapsed meanwhile
 *       comes back as a reconciliation offer, and the worker answers it from its {@link JobJournal}
 *       — it takes over a job still running here, reports an outcome it already has, and never runs
 *       a job twice unless the handler's {@link ReconcilePolicy} says its effects are idempotent.
 *   <li>A job the team's lead interrupts comes as an {@code interrupt} event on the stream (or, if
 *       that was missed, as the refusal of the job's next heartbeat): the handler sees {@link
 *       JobContext#interrupted()} and its {@link JobContext#onInterrupt} actions run, and nothing
 *       more is reported for the job.
 *   <li>{@link #close()} drains: the stream closes, running jobs get {@code drainTimeout} to
 *       finish, and those that do not are given back ({@code released}) for reconciliation.
 * </ul>
 *
 * <pre>{@code
 * try (AgentWorker worker = client.worker("researcher", TokenSupplier.of(workerToken),
 *         job -> JobResult.completed("read: " + job.offer().input()))
 *     .maxJobs(4)
 *     .start()) {
 *   worker.awaitStopped();
 * }
 * }</pre>
 */
public final class AgentWorker implements AutoCloseable {

  private enum State {
    NEW,
    RUNNING,
    DRAINING,
    STOPPED
  }

  private final HttpTransport http;
  private final String agentId;
  private final JobHandler handler;
  private final String workerId;
  private final int maxJobs;
  private final @Nullable Integer leaseSeconds;
  private final Backoff backoff;
  private final Duration drainTimeout;
  private final JobJournal journal;
  private final WorkerListener listener;
  private final Map<UUID, Execution> running = new ConcurrentHashMap<>();
  private final Set<UUID> received = ConcurrentHashMap.newKeySet();
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final AtomicReference<@Nullable InputStream> streamBody = new AtomicReference<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final ExecutorService runners;
  private final ExecutorService reporters;
  private final ScheduledExecutorService heartbeats;
  private final Thread streamThread;
  private final Duration idleTimeout;
  private volatile @Nullable String lastEventId;
  private volatile Instant lastHeard = Instant.now();

  private AgentWorker(Builder builder) {
    this.http = builder.http;
    this.agentId = builder.agentId;
    this.handler = builder.handler;
    this.workerId = builder.workerId;
    this.maxJobs = builder.maxJobs;
    this.leaseSeconds = builder.leaseSeconds;
    this.backoff = builder.backoff;
    this.drainTimeout = builder.drainTimeout;
    this.journal = builder.journal;
    this.listener = builder.listener;
    this.idleTimeout = builder.idleTimeout;
    String name = "agentteams-worker-" + agentId;
    this.runners = Executors.newFixedThreadPool(maxJobs, threads(name + "-job-"));
    this.reporters = Executors.newCachedThreadPool(threads(name + "-report-"));
    this.heartbeats = Executors.newSingleThreadScheduledExecutor(threads(name + "-heartbeat-"));
    this.streamThread = threads(name + "-stream-").newThread(this::holdStream);
  }

  /** Configures a worker whose transport holds the worker token. */
  public static Builder builder(HttpTransport workerHttp, String agentId, JobHandler handler) {
    return new Builder(workerHttp, agentId, handler);
  }

  /** Opens the job stream and starts taking jobs. */
  public AgentWorker start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("a worker starts once");
    }
    heartbeats.scheduleWithFixedDelay(this::heartbeat, 100, 100, TimeUnit.MILLISECONDS);
    streamThread.start();
    return this;
  }

  /** The id the worker holds its leases under. */
  public String workerId() {
    return workerId;
  }

  /** The agent whose jobs it runs. */
  public String agentId() {
    return agentId;
  }

  /** The jobs it holds now (running, or reporting how they ended). */
  public Set<UUID> jobsInHand() {
    return Set.copyOf(running.keySet());
  }

  /** Whether it drains or has stopped. */
  public boolean stopping() {
    return state.get() != State.RUNNING;
  }

  /** Waits until the worker has stopped. */
  public void awaitStopped() throws InterruptedException {
    stopped.await();
  }

  /** Waits at most {@code timeout} for the worker to stop; true if it did. */
  public boolean awaitStopped(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  // ---- the stream ----

  private void holdStream() {
    int failures = 0;
    while (state.get() == State.RUNNING) {
      ApiPath path =
          ApiPath.of("/api/v1/agents/{}/jobs/stream", agentId)
              .query("lease_seconds", leaseSeconds)
              .query("worker_id", workerId)
              .query("max_jobs", maxJobs);
      try (InputStream in = http.openStream(path, lastEventId);
          SseReader events = new SseReader(in, () -> lastHeard = Instant.now())) {
        lastHeard = Instant.now();
        streamBody.set(in);
        if (state.get() != State.RUNNING) {
          return;
        }
        failures = 0;
        listener.connected();
        ServerSentEvent event;
        while ((event = events.next()) != null) {
          if (event.id() != null) {
            lastEventId = event.id();
          }
          if ("job".equals(event.event())) {
            accept(event.data());
          } else if ("interrupt".equals(event.event())) {
            interrupt(event.data());
          }
        }
        listener.disconnected(new IOException("the job stream ended"));
      } catch (ApiException e) {
        if (!e.retryable() && state.get() == State.RUNNING) {
          // A refused token or an agent that is not this token's cannot be fixed by retrying.
          listener.disconnected(e);
          abortWith(e);
          return;
        }
        listener.disconnected(e);
      } catch (IOException | RuntimeException e) {
        listener.disconnected(e);
      } finally {
        streamBody.set(null);
      }
      if (state.get() != State.RUNNING) {
        return;
      }
      if (!pause(backoff.delay(failures++))) {
        return;
      }
    }
  }

  private void accept(String data) {
    JobOffer offer;
    try {
      offer = http.json().readValue(data, JobOffer.class);
    } catch (JacksonException e) {
      listener.disconnected(new IOException("unreadable job offer: " + e.getMessage(), e));
      return;
    }
    listener.offered(offer);
    UUID jobId = offer.jobId();
    boolean seenBefore = !received.add(jobId);
    Execution here = running.get(jobId);
    if (here != null) {
      // Its lease lapsed while it ran here (a gateway restart, say): carry on under the new one.
      here.takeOver(offer);
      if (here.result() == null) {
        reporters.execute(() -> report(here, "started", Map.of(), false));
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
  private void interrupt(String data) {
    UUID jobId;
    try {
      jobId = UUID.fromString(http.json().readTree(data).path("job_id").asString(""));
    } catch (JacksonException | IllegalArgumentException e) {
      listener.disconnected(new IOException("unreadable interrupt: " + e.getMessage(), e));
      return;
    }
    Execution execution = running.get(jobId);
    if (execution != null) {
      interrupted(execution);
    }
  }

  private void interrupted(Execution execution) {
    if (execution.interrupt()) {
      listener.interrupted(execution.jobId());
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
    Outcome started = report(execution, "started", Map.of(), true);
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
    Map<String, Object> body = new LinkedHashMap<>();
    String type;
    if (result instanceof JobResult.Completed completed) {
      type = "completed";
      body.put("answer", completed.answer());
      body.put("usage", usage(completed.usage()));
    } else if (result instanceof JobResult.Failed failed) {
      type = "failed";
      body.put("error", failed.error());
      body.put("usage", usage(failed.usage()));
    } else {
      JobResult.InputRequired asked = (JobResult.InputRequired) result;
      type = "input_required";
      Map<String, Object> question = new LinkedHashMap<>();
      if (asked.clarification() != null) {
        question.put("kind", "clarification");
        question.put("text", asked.clarification());
      } else {
        question.put("kind", "interrupt");
        question.put("payload", asked.interrupt());
      }
      body.put("question", question);
    }
    Outcome outcome = report(execution, type, body, true);
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
      listener.reportFailed(jobId, type, new IllegalStateException("lease replaced"), false);
    }
  }

  static Map<String, Object> usage(Usage usage) {
    Map<String, Object> wire = new LinkedHashMap<>();
    wire.put("tokens", usage.tokens());
    wire.put("cost_units", usage.costUnits());
    wire.put("input_tokens", usage.inputTokens());
    wire.put("output_tokens", usage.outputTokens());
    if (usage.model() != null) {
      wire.put("model", usage.model());
    }
    return wire;
  }

  /**
   * Reports a running job's usage so far at once, as a heartbeat. False when the job may not go on:
   * the scheduler ended it (a budget with no room for the usage stops it at this report, and the
   * handler is then told it is cancelled) or the report did not get through.
   */
  boolean reportUsage(Execution execution, Usage soFar) {
    Outcome outcome = report(execution, "heartbeat", Map.of("usage", usage(soFar)), true);
    return outcome == Outcome.DONE && !execution.cancelled();
  }

  // ---- reports ----

  private enum Outcome {
    /** The scheduler took the report. */
    DONE,
    /** A newer offer replaced the lease the report named. */
    STALE,
    /** The job is in a state that takes no such report (cancelled, already ended). */
    ENDED,
    /** The report was refused for good, or the worker stopped trying. */
    GAVE_UP
  }

  /** The answer to a report. */
  record ReportAnswer(
      UUID jobId,
      String state,
      long revision,
      @Nullable Instant leaseExpiresAt,
      @Nullable String memberToken,
      @Nullable Instant memberTokenExpiresAt) {}

  private Outcome report(
      Execution execution, String type, Map<String, Object> extra, boolean retry) {
    UUID jobId = execution.jobId();
    int attempt = 0;
    while (true) {
      if (execution.abandoned() && !"released".equals(type)) {
        return Outcome.GAVE_UP;
      }
      if (execution.interrupted()) {
        return Outcome.ENDED;
      }
      String lease = execution.leaseToken();
      Map<String, Object> body = new LinkedHashMap<>(extra);
      body.put("type", type);
      body.put("lease_token", lease);
      body.put("run_id", workerId);
      try {
        ReportAnswer answer =
            http.call(
                "POST", ApiPath.of("/api/v1/jobs/{}/events", jobId), body, ReportAnswer.class);
        if (answer != null) {
          execution.refreshMemberToken(answer.memberToken());
          if (("heartbeat".equals(type) || "started".equals(type))
              && ("failed".equals(answer.state()) || "cancelled".equals(answer.state()))) {
            // The report itself ended the job (a budget with no room for its usage): the turn
            // stops, as with any job the scheduler ended.
            execution.cancel();
          }
        }
        listener.reported(jobId, type);
        return Outcome.DONE;
      } catch (ConflictException e) {
        if (e.is("stale-lease")) {
          if (!lease.equals(execution.leaseToken())) {
            continue;
          }
          listener.reportFailed(jobId, type, e, false);
          return Outcome.STALE;
        }
        if (interruptedState(e)) {
          // The interrupt's stream event was missed (a reconnect): the refusal says it.
          interrupted(execution);
        } else if ("heartbeat".equals(type) || "started".equals(type)) {
          execution.cancel();
        }
        listener.reportFailed(jobId, type, e, false);
        return Outcome.ENDED;
      } catch (AgentTeamsException e) {
        boolean again = retry && e.retryable() && state.get() != State.STOPPED;
        listener.reportFailed(jobId, type, e, again);
        if (!again) {
          return Outcome.GAVE_UP;
        }
      }
      if (!pause(backoff.delay(attempt++))) {
        return Outcome.GAVE_UP;
      }
    }
  }

  private static boolean interruptedState(ConflictException refused) {
    return refused
        .problem()
        .property("state")
        .map(state -> "interrupted".equals(state.asString("")))
        .orElse(false);
  }

  private void heartbeat() {
    Instant now = Instant.now();
    if (streamBody.get() != null && lastHeard.plus(idleTimeout).isBefore(now)) {
      // Not even a heartbeat comment for this long: the connection is dead though not closed.
      InputStream silent = streamBody.getAndSet(null);
      if (silent != null) {
        try {
          silent.close();
        } catch (IOException ignored) {
          // the stream thread reconnects either way
        }
      }
    }
    for (Execution execution : running.values()) {
      if (execution.heartbeatDue(now)) {
        try {
          reporters.execute(() -> report(execution, "heartbeat", Map.of(), false));
        } catch (RuntimeException e) {
          return; // shutting down
        }
      }
    }
  }

  MemberTools memberTools(UUID teamId, TokenSupplier memberToken) {
    return new MemberTools(teamId, http.withTokens(memberToken));
  }

  // ---- stopping ----

  /**
   * Drains: no new jobs are taken, running jobs get the drain time-out to finish and report, and
   * those still running then are given back ({@code released}) for reconciliation.
   */
  @Override
  public void close() {
    if (state.compareAndSet(State.NEW, State.STOPPED)) {
      stopped.countDown();
      return;
    }
    if (!state.compareAndSet(State.RUNNING, State.DRAINING)) {
      return;
    }
    closeStream();
    Instant deadline = Instant.now().plus(drainTimeout);
    while (!running.isEmpty() && Instant.now().isBefore(deadline)) {
      if (!pause(Duration.ofMillis(50))) {
        break;
      }
    }
    for (Execution left : List.copyOf(running.values())) {
      left.abandon();
      if (left.result() == null) {
        report(left, "released", Map.of(), false);
      }
    }
    shutDown();
    listener.stopped(new IllegalStateException("closed"));
  }

  /**
   * Stops at once, as if the process died: no report is made and nothing is given back, so the
   * scheduler finds the leases lapsed and reconciles the jobs.
   */
  public void abort() {
    abortWith(new IllegalStateException("aborted"));
  }

  private void abortWith(Throwable cause) {
    State before = state.getAndSet(State.STOPPED);
    if (before == State.STOPPED) {
      return;
    }
    running.values().forEach(Execution::abandon);
    closeStream();
    shutDown();
    listener.stopped(cause);
  }

  private void shutDown() {
    state.set(State.STOPPED);
    heartbeats.shutdownNow();
    runners.shutdownNow();
    reporters.shutdownNow();
    stopped.countDown();
  }

  private void closeStream() {
    InputStream open = streamBody.getAndSet(null);
    if (open != null) {
      try {
        open.close();
      } catch (IOException ignored) {
        // closing is all that is wanted
      }
    }
    streamThread.interrupt();
  }

  private boolean pause(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String describe(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Configures a worker. */
  public static final class Builder {
    private final HttpTransport http;
    private final String agentId;
    private final JobHandler handler;
    private String workerId = "worker-" + UUID.randomUUID();
    private int maxJobs = 4;
    private @Nullable Integer leaseSeconds;
    private Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(15));
    private Duration drainTimeout = Duration.ofSeconds(30);
    private Duration idleTimeout = Duration.ofSeconds(60);
    private JobJournal journal = JobJournal.inMemory();
    private WorkerListener listener = new WorkerListener() {};

    private Builder(HttpTransport http, String agentId, JobHandler handler) {
      this.http = Objects.requireNonNull(http);
      this.agentId = Objects.requireNonNull(agentId);
      this.handler = Objects.requireNonNull(handler);
    }

    /** Jobs run at once (default 4); the scheduler offers no more while as many are in hand. */
    public Builder maxJobs(int maxJobs) {
      if (maxJobs < 1 || maxJobs > 1000) {
        throw new IllegalArgumentException("maxJobs must be 1..1000");
      }
      this.maxJobs = maxJobs;
      return this;
    }

    /** The lease to ask for (default: the scheduler's, 30 s); heartbeats renew it every third. */
    public Builder leaseSeconds(int leaseSeconds) {
      this.leaseSeconds = leaseSeconds;
      return this;
    }

    /**
     * The worker's id (default: a new random one per worker). A worker that keeps its id across
     * restarts must keep a durable {@link JobJournal} too.
     */
    public Builder workerId(String workerId) {
      this.workerId = Objects.requireNonNull(workerId);
      return this;
    }

    /** The back-off between reconnects and report retries (full jitter up to each ceiling). */
    public Builder backoff(Duration initial, Duration max) {
      this.backoff = new Backoff(initial, max);
      return this;
    }

    /** How long {@link AgentWorker#close()} lets running jobs finish (default 30 s). */
    public Builder drainTimeout(Duration drainTimeout) {
      this.drainTimeout = Objects.requireNonNull(drainTimeout);
      return this;
    }

    /**
     * How long the stream may stay silent (the scheduler sends a heartbeat comment every 15 s by
     * default) before the worker takes it for dead and reconnects (default 60 s).
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = Objects.requireNonNull(idleTimeout);
      return this;
    }

    /** Where the worker keeps its record of the jobs it ran (default: in memory). */
    public Builder journal(JobJournal journal) {
      this.journal = Objects.requireNonNull(journal);
      return this;
    }

    /** Who hears what the worker does. */
    public Builder listener(WorkerListener listener) {
      this.listener = Objects.requireNonNull(listener);
      return this;
    }

    /** The worker, not yet started. */
    public AgentWorker build() {
      return new AgentWorker(this);
    }

    /** The worker, started. */
    public AgentWorker start() {
      return build().start();
    }
  }
}
