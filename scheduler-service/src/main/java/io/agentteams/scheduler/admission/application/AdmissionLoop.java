package io.agentteams.scheduler.admission.application;

import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.admission.domain.AdmissionPlan;
import io.agentteams.scheduler.admission.domain.AdmissionPolicy;
import io.agentteams.scheduler.admission.domain.Candidate;
import io.agentteams.scheduler.admission.persistence.AdmissionStore;
import io.agentteams.scheduler.admission.persistence.AdmissionStore.CandidateRow;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.domain.BudgetLimits;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
import io.agentteams.scheduler.job.domain.JobKind;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.signal.DatabaseSignals;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Admits queued jobs into free slots. Every replica may run this loop: a pass locks the single
 * admission control row, so passes run one at a time across the deployment, and within it the
 * {@link AdmissionPolicy} decides, over the queued conversation heads, which jobs take the free
 * slot rows. The admission, the slots, the rotation and the events commit together.
 *
 * <p>A pass wakes on commit notifications (a new job, an answer, a released slot) and on a poll. It
 * is bounded: at most {@code max-per-pass} jobs, a lock wait of {@code lock-timeout} and a step
 * time-out, after which it rolls back and the next wake-up tries again.
 */
@Component
public class AdmissionLoop implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(AdmissionLoop.class);

  /** What one pass did. */
  public record PassResult(int admitted, int refused) {
    static final PassResult NOTHING = new PassResult(0, 0);
  }

  private final AdmissionStore store;
  private final JobTransitions transitions;
  private final JobEvents events;
  private final TransactionalOperator transactions;
  private final DatabaseSignals signals;
  private final SchedulerProperties.Admission properties;
  private final AdmissionPolicy policy;
  private final BudgetLimits budgets;
  private final String replica;
  private final Clock clock;
  private final Sinks.Many<Boolean> wakeups = Sinks.many().unicast().onBackpressureBuffer();
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile Disposable loop = () -> {};
  private final Timer admissionWait;
  private final Counter admissions;
  private final Counter failures;

  public AdmissionLoop(
      AdmissionStore store,
      JobTransitions transitions,
      JobEvents events,
      TransactionalOperator transactions,
      DatabaseSignals signals,
      SchedulerProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.store = store;
    this.transitions = transitions;
    this.events = events;
    this.transactions = transactions;
    this.signals = signals;
    this.properties = properties.admission();
    this.policy = new AdmissionPolicy(properties.admission().weights());
    this.budgets = properties.budget().limits();
    this.replica = properties.replicaId();
    this.clock = clock;
    this.admissionWait =
        Timer.builder("agentteams.scheduler.admission.wait")
            .description("Time from a job entering the queue to its admission")
            .publishPercentileHistogram()
            .register(meters);
    this.admissions =
        Counter.builder("agentteams.scheduler.admissions")
            .description("Jobs admitted by this replica")
            .register(meters);
    this.failures =
        Counter.builder("agentteams.scheduler.admission.pass.failures")
            .description("Admission passes that failed or timed out and rolled back")
            .register(meters);
  }

  /** One pass in its own transaction. */
  public Mono<PassResult> pass() {
    return transactions
        .transactional(Mono.defer(this::passInTransaction))
        .timeout(properties.stepTimeout());
  }

  /** Passes until one admits and refuses nothing. */
  public Mono<Integer> drain() {
    return Mono.defer(this::pass)
        .repeat()
        .takeUntil(result -> result.admitted() + result.refused() == 0)
        .map(PassResult::admitted)
        .reduce(0, Integer::sum);
  }

  private Mono<PassResult> passInTransaction() {
    return store
        .lockControl(properties.lockTimeout())
        .flatMap(
            control ->
                store
                    .heldSlots()
                    .flatMap(
                        held -> {
                          int free = Math.min(control.capacity() - held, properties.maxPerPass());
                          if (free <= 0) {
                            return Mono.just(PassResult.NOTHING);
                          }
                          return store
                              .candidates(free)
                              .collectList()
                              .flatMap(rows -> admit(control, free, rows));
                        }));
  }

  private Mono<PassResult> admit(
      AdmissionStore.Control control, int free, List<CandidateRow> rows) {
    Map<UUID, CandidateRow> byId = new HashMap<>();
    rows.forEach(row -> byId.put(row.candidate().jobId(), row));
    return store
        .lockQueued(byId.keySet())
        .collectList()
        .flatMap(
            locked ->
                store
                    .busyTeams(locked.stream().map(job -> job.spec().teamId()).distinct().toList())
                    .flatMap(busy -> decide(control, free, byId, locked, busy)));
  }

  private Mono<PassResult> decide(
      AdmissionStore.Control control,
      int free,
      Map<UUID, CandidateRow> rows,
      List<Job> locked,
      Set<UUID> busyTeams) {
    Instant now = clock.instant();
    Map<UUID, Job> eligible = new HashMap<>();
    List<Job> refused = new ArrayList<>();
    List<JobChange> refusals = new ArrayList<>();
    for (Job job : locked) {
      if (busyTeams.contains(job.spec().teamId())) {
        continue;
      }
      CandidateRow row = rows.get(job.id());
      var exhausted =
          budgets.any() && row.kind() != JobKind.RECEIPT && !row.resume()
              ? budgets.exhausted(row.chainUsage(), row.ownerUsage())
              : java.util.Optional.<io.agentteams.platform.problem.LimitExceededException>empty();
      if (exhausted.isPresent()) {
        refusals.add(job.refuse("refused at admission: " + exhausted.get().detail(), now));
        refused.add(job);
      } else {
        eligible.put(job.id(), job);
      }
    }
    List<Candidate> candidates =
        eligible.keySet().stream().map(id -> rows.get(id).candidate()).toList();
    AdmissionPlan plan = policy.plan(control.rotation(), free, candidates);
    List<Job> admitted = new ArrayList<>();
    List<JobChange> changes = new ArrayList<>();
    for (Candidate candidate : plan.admitted()) {
      Job job = eligible.get(candidate.jobId());
      changes.add(job.admit(replica, now));
      admitted.add(job);
    }
    Mono<Void> refuse =
        Flux.range(0, refused.size())
            .concatMap(i -> transitions.followUp(refused.get(i), refusals.get(i), now))
            .then();
    Mono<Void> admit =
        store
            .markAdmitted(admitted, replica, now)
            .then(
                store.assignSlots(admitted.stream().map(Job::id).toList(), control.capacity(), now))
            .then(store.saveRotation(plan.rotation(), now))
            .thenMany(
                Flux.range(0, admitted.size())
                    .concatMap(i -> events.changed(admitted.get(i), changes.get(i))))
            .then();
    return refuse
        .then(admit)
        .then(
            Mono.fromRunnable(
                () -> {
                  admissions.increment(admitted.size());
                  for (Job job : admitted) {
                    admissionWait.record(Duration.between(job.queuedAt(), now));
                  }
                }))
        .thenReturn(new PassResult(admitted.size(), refused.size()));
  }

  /** Asks the loop for a pass now. */
  public void wake() {
    synchronized (wakeups) {
      wakeups.tryEmitNext(Boolean.TRUE);
    }
  }

  /** Starts the loop regardless of configuration (the lifecycle starts it when enabled). */
  public void run() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    loop =
        Flux.merge(
                wakeups.asFlux(),
                signals.on(DatabaseSignals.ADMISSION).map(payload -> Boolean.TRUE),
                Flux.interval(Duration.ZERO, properties.pollInterval()).map(tick -> Boolean.TRUE))
            .onBackpressureLatest()
            .concatMap(
                signal ->
                    drain()
                        .onErrorResume(
                            e -> {
                              failures.increment();
                              log.warn(
                                  "admission pass failed; the next wake-up retries: {}",
                                  e.toString());
                              return Mono.just(0);
                            }),
                1)
            .subscribe(n -> {}, e -> log.error("admission loop stopped", e));
  }

  /** Records the configured capacity (every replica has the same), then runs when enabled. */
  @Override
  public void start() {
    store.configureCapacity(properties.slots()).block(Duration.ofSeconds(30));
    if (properties.enabled()) {
      run();
    }
  }

  @Override
  public void stop() {
    running.set(false);
    loop.dispose();
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }
}
