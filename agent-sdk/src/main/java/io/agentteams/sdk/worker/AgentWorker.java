package io.agentteams.sdk.worker;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.Backoff;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.problem.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

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

  private final String agentId;
  private final String workerId;
  private final Duration drainTimeout;
  private final WorkerListener listener;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final ExecutorService runners;
  private final ExecutorService reporters;
  private final ScheduledExecutorService heartbeats;
  private final JobsInHand jobs;
  private final JobStream stream;

  private AgentWorker(Builder builder) {
    this.agentId = builder.agentId;
    this.workerId = builder.workerId;
    this.drainTimeout = builder.drainTimeout;
    this.listener = builder.listener;
    String name = "agentteams-worker-" + agentId;
    this.runners = Executors.newFixedThreadPool(builder.maxJobs, threads(name + "-job-"));
    this.reporters = Executors.newCachedThreadPool(threads(name + "-report-"));
    this.heartbeats = Executors.newSingleThreadScheduledExecutor(threads(name + "-heartbeat-"));
    JobReports reports =
        new JobReports(
            builder.http, workerId, builder.backoff, listener, () -> state.get() == State.STOPPED);
    this.jobs =
        new JobsInHand(
            builder.http,
            workerId,
            builder.handler,
            builder.journal,
            listener,
            reports,
            runners,
            reporters,
            this::stopping);
    this.stream =
        new JobStream(
            builder.http,
            ApiPath.of("/api/v1/agents/{}/jobs/stream", agentId)
                .query("lease_seconds", builder.leaseSeconds)
                .query("worker_id", workerId)
                .query("max_jobs", builder.maxJobs),
            builder.backoff,
            builder.idleTimeout,
            listener,
            () -> state.get() == State.RUNNING,
            new JobStream.Events() {
              @Override
              public void offered(JobOffer offer) {
                jobs.accept(offer);
              }

              @Override
              public void interrupted(UUID jobId) {
                jobs.interrupt(jobId);
              }

              @Override
              public void refused(ApiException refusal) {
                abortWith(refusal);
              }
            },
            threads(name + "-stream-"));
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
    stream.open();
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
    return jobs.ids();
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

  private void heartbeat() {
    Instant now = Instant.now();
    stream.dropIfSilent(now);
    jobs.heartbeat(now);
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
    stream.close();
    Instant deadline = Instant.now().plus(drainTimeout);
    while (!jobs.isEmpty() && Instant.now().isBefore(deadline)) {
      if (!Pause.waitFor(Duration.ofMillis(50))) {
        break;
      }
    }
    jobs.releaseAll();
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
    jobs.abandonAll();
    stream.close();
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
