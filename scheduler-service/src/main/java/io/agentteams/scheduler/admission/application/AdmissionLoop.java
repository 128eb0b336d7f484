package io.agentteams.scheduler.admission.application;

import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.admission.AdmissionProperties;
import io.agentteams.scheduler.admission.domain.AdmissionPlan;
import io.agentteams.scheduler.admission.domain.AdmissionPolicy;
import io.agentteams.scheduler.admission.domain.Candidate;
import io.agentteams.scheduler.admission.persistence.AdmissionStore;
import io.agentteams.scheduler.admission.persistence.AdmissionStore.CandidateRow;
import io.agentteams.scheduler.admission.persistence.AdmissionStore.LockedJob;
import io.agentteams.scheduler.budget.application.Spending;
import io.agentteams.scheduler.budget.domain.BudgetExceeded;
import io.agentteams.scheduler.budget.persistence.LedgerStore.JobAccount;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
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
  private final AdmissionProperties properties;
  private final AdmissionPolicy policy;
  private final Spending spending;
  private final String replica;
  private final Clock clock;
  // Multicast, so the loop can be stopped and started again; a wake-up while nothing listens is
  // lost harmlessly, because every start begins with a pass.
  private final Sinks.Many<Boolean> wakeups = Sinks.many().multicast().directBestEffort();
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
      Spending spending,
      AdmissionProperties properties,
      SchedulerProperties scheduler,
      Clock clock,
      MeterRegistry meters) {
    this.store = store;
    this.transitions = transitions;
    this.events = events;
    this.transactions = transactions;
    this.signals = signals;
    this.properties = properties;
    this.policy = new AdmissionPolicy(properties.weights(), properties.ownerCeiling());
    this.spending = spending;
    this.replica = scheduler.replicaId();
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

  /**
   * Passes until one admits fewer than {@code max-per-pass}: a pass that stayed under the cap
   * filled every slot it could, and anything that changes that raises a new wake-up.
   */
  public Mono<Integer> drain() {
    return Mono.defer(this::pass)
        .repeat()
        .takeUntil(result -> result.admitted() + result.refused() < properties.maxPerPass())
        .map(PassResult::admitted)
        .reduce(0, Integer::sum);
  }

  private Mono<PassResult> passInTransaction() {
    return store
        .lockControl()
        .flatMap(
            control -> {
              int free = Math.min(control.capacity() - control.held(), properties.maxPerPass());
              if (free <= 0) {
                return Mono.just(PassResult.NOTHING);
              }
              return store
                  .candidates(free)
                  .collectList()
                  .zipWith(store.heldByOwner())
                  .flatMap(found -> admit(control, free, found.getT1(), found.getT2()));
            })
        .defaultIfEmpty(PassResult.NOTHING);
  }

  /**
   * Plans, then locks only what the plan needs — the planned jobs' rows ({@code SKIP LOCKED}) and
   * their teams' outbox keys (try-lock) — and plans again without whatever was busy or refused,
   * until the plan needs nothing more. Nothing waits, so a pass never queues behind a team's
   * transaction, and it holds as few locks as the slots it fills.
   */
  private Mono<PassResult> admit(
      AdmissionStore.Control control,
      int free,
      List<CandidateRow> rows,
      Map<String, Integer> held) {
    Instant now = clock.instant();
    Selection selection = new Selection(rows, held);
    return select(control, free, selection, now, 0)
        .flatMap(plan -> apply(control, plan, selection, now));
  }

  private static final int MAX_REPLANS = 3;

  private Mono<AdmissionPlan> select(
      AdmissionStore.Control control, int free, Selection selection, Instant now, int attempt) {
    AdmissionPlan plan =
        policy.plan(control.rotation(), free, selection.candidates(), selection.held);
    List<UUID> teams =
        plan.admitted().stream()
            .map(Candidate::teamId)
            .distinct()
            .filter(team -> !selection.lockedTeams.contains(team))
            .toList();
    boolean rowsLocked =
        plan.admitted().stream().allMatch(c -> selection.locked.containsKey(c.jobId()));
    if (teams.isEmpty() && rowsLocked) {
      return Mono.just(plan);
    }
    if (attempt >= MAX_REPLANS) {
      return Mono.just(
          policy.plan(control.rotation(), free, selection.fullyLocked(), selection.held));
    }
    return store
        .busyTeams(teams)
        .flatMap(
            busy -> {
              selection.teamsTried(teams, busy);
              List<UUID> rows =
                  plan.admitted().stream()
                      .filter(c -> !selection.locked.containsKey(c.jobId()))
                      .filter(c -> !busy.contains(c.teamId()))
                      .map(Candidate::jobId)
                      .toList();
              return store
                  .lockQueued(rows)
                  .collectList()
                  .doOnNext(locked -> selection.rowsTried(rows, locked));
            })
        .then(Mono.defer(() -> select(control, free, selection, now, attempt + 1)));
  }

  /**
   * Reserves the planned jobs' estimates in the ledger, then admits those it reserved for. A job a
   * budget has no room for is refused here, naming the budget; a job whose balances another
   * transaction holds stays queued for the next pass (its settlement's commit wakes one). What each
   * admitted job now holds is written with its admission.
   */
  private Mono<PassResult> apply(
      AdmissionStore.Control control, AdmissionPlan plan, Selection selection, Instant now) {
    List<Job> planned = plan.admitted().stream().map(c -> selection.locked.get(c.jobId())).toList();
    return spending
        .reserve(planned.stream().map(Job::spender).toList(), selection.accounts, now)
        .flatMap(
            reservations -> {
              List<Job> admitted = new ArrayList<>();
              List<JobChange> changes = new ArrayList<>();
              for (Job job : planned) {
                BudgetExceeded refused = reservations.refused().get(job.id());
                if (refused != null) {
                  selection.refusals.put(
                      job, job.refuse(BudgetExceeded.CODE + ": " + refused.detail(), now));
                } else if (!reservations.busy().contains(job.id())) {
                  changes.add(job.admit(replica, now));
                  admitted.add(job);
                }
              }
              return write(control, plan, selection, reservations, admitted, changes, now);
            });
  }

  private Mono<PassResult> write(
      AdmissionStore.Control control,
      AdmissionPlan plan,
      Selection selection,
      Spending.Reservations reservations,
      List<Job> admitted,
      List<JobChange> changes,
      Instant now) {
    Mono<Void> refuse =
        Flux.fromIterable(selection.refusals.entrySet())
            .concatMap(refusal -> transitions.followUp(refusal.getKey(), refusal.getValue(), now))
            .then();
    Mono<Void> admit =
        store
            .markAdmitted(admitted, reservations.holding(), reservations.hold(), replica, now)
            .then(
                store.assignSlots(admitted.stream().map(Job::id).toList(), control.capacity(), now))
            .then(store.saveRotation(plan.rotation(), now))
            // One outbox statement for the whole pass rather than one per job.
            .then(events.changedAll(admitted, changes))
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
        .thenReturn(new PassResult(admitted.size(), selection.refusals.size()));
  }

  /** What one pass has locked, found busy or refused so far. */
  private static final class Selection {
    private final Map<UUID, CandidateRow> rows = new LinkedHashMap<>();
    private final Map<UUID, Job> locked = new HashMap<>();
    private final Map<UUID, JobAccount> accounts = new HashMap<>();
    private final Set<UUID> lockedTeams = new HashSet<>();
    private final Set<UUID> busyTeams = new HashSet<>();
    private final Set<UUID> unavailable = new HashSet<>();
    private final Map<Job, JobChange> refusals = new LinkedHashMap<>();

    /** Slots each owner held when the pass began. */
    private final Map<String, Integer> held;

    Selection(List<CandidateRow> candidates, Map<String, Integer> held) {
      candidates.forEach(row -> rows.put(row.candidate().jobId(), row));
      this.held = Map.copyOf(held);
    }

    /** Candidates still in play: not busy, not held by another transaction, not refused. */
    List<Candidate> candidates() {
      return rows.values().stream()
          .map(CandidateRow::candidate)
          .filter(c -> !busyTeams.contains(c.teamId()) && !unavailable.contains(c.jobId()))
          .toList();
    }

    /** Candidates whose row and team this transaction already holds. */
    List<Candidate> fullyLocked() {
      return candidates().stream()
          .filter(c -> locked.containsKey(c.jobId()) && lockedTeams.contains(c.teamId()))
          .toList();
    }

    void teamsTried(List<UUID> tried, Set<UUID> busy) {
      for (UUID team : tried) {
        (busy.contains(team) ? busyTeams : lockedTeams).add(team);
      }
    }

    /**
     * Records the rows a lock attempt got; a row it did not get is held elsewhere (or no longer
     * queued).
     */
    void rowsTried(List<UUID> tried, List<LockedJob> got) {
      Set<UUID> gotIds = new HashSet<>();
      for (LockedJob row : got) {
        Job job = row.job();
        gotIds.add(job.id());
        locked.put(job.id(), job);
        accounts.put(job.id(), row.account());
      }
      tried.stream().filter(id -> !gotIds.contains(id)).forEach(unavailable::add);
    }
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
                signals.on(DatabaseSignals.ADMISSION).map(notification -> Boolean.TRUE),
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
