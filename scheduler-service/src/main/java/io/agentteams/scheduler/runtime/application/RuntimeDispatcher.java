package io.agentteams.scheduler.runtime.application;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.scheduler.dispatch.application.LeasedDispatch;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
import io.agentteams.scheduler.signal.DatabaseSignals;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * The leased-dispatch lifecycle of every push runtime, written once. For each {@link
 * RuntimeAdapter}, every replica looks for the runtime's agents with offerable jobs (on the
 * database's dispatch signal, and on a poll as the safety net), claims their jobs under the
 * runtime's lease exactly as a pull worker would (one replica per job, at most {@code
 * max-in-flight} held at once), and hands each one to the adapter as a {@link LeasedJob}. The lease
 * it holds makes sure a job is never forgotten: a replica that dies mid-way leaves a lease that
 * lapses into a reconciliation. It also forgets the runtime's records of ended jobs, and runs the
 * adapter's own periodic chores. Meters per runtime: the in-flight gauge and the failures by reason
 * its {@link RuntimeProfile} names.
 */
@Component
public class RuntimeDispatcher implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(RuntimeDispatcher.class);
  private static final int AGENTS_PER_PASS = 100;
  private static final Duration HOUSEKEEPING_PERIOD = Duration.ofMinutes(10);

  private final List<Lane> lanes;
  private final PushAgentStore agents;
  private final LeasedDispatch dispatch;
  private final LeasedJob.Lifecycle lifecycle;
  private final DatabaseSignals signals;
  private final PeriodicLoops loops;
  private final Clock clock;
  private final AtomicBoolean running = new AtomicBoolean();

  public RuntimeDispatcher(
      List<RuntimeAdapter> adapters,
      PushAgentStore agents,
      LeasedDispatch dispatch,
      JobTransitions transitions,
      JobEvents events,
      TransactionalOperator transactions,
      DatabaseSignals signals,
      PeriodicLoops loops,
      Clock clock,
      MeterRegistry meters) {
    this.agents = agents;
    this.dispatch = dispatch;
    this.lifecycle = new LeasedJob.Lifecycle(dispatch, transitions, events, transactions, meters);
    this.signals = signals;
    this.loops = loops;
    this.clock = clock;
    this.lanes = adapters.stream().map(adapter -> new Lane(adapter, meters)).toList();
  }

  /** One pass of the runtime of that kind: claims what waits for its agents, as room allows. */
  public Mono<Void> pass(String kind) {
    return lanes.stream()
        .filter(lane -> lane.profile.kind().equals(kind))
        .findFirst()
        .map(Lane::pass)
        .orElse(Mono.empty());
  }

  /**
   * Passes on the database's dispatch signal (a job became offerable, on whichever replica), and
   * starts each runtime's periodic loops: dispatch, housekeeping and its own chores.
   */
  @Override
  public void start() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    lanes.forEach(Lane::start);
  }

  @Override
  public void stop() {
    running.set(false);
    lanes.forEach(Lane::stop);
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }

  /** One runtime's share of the lifecycle: its room, its signal subscription and its loops. */
  private final class Lane {

    private final RuntimeAdapter adapter;
    private final RuntimeProfile profile;
    private final RuntimeSettings settings;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<PeriodicLoop> periodic = new ArrayList<>();
    private volatile Disposable signalled = () -> {};

    Lane(RuntimeAdapter adapter, MeterRegistry meters) {
      this.adapter = adapter;
      this.profile = adapter.profile();
      this.settings = adapter.settings();
      meters.gauge(profile.inFlightMeter(), inFlight);
      // Every series exists from the start, so dashboards and alerts read zeros, not gaps.
      profile.failureReasons().forEach(reason -> LeasedJob.failures(meters, profile, reason));
    }

    Mono<Void> pass() {
      return agents
          .agentsWithOfferableJobs(profile.kind(), AGENTS_PER_PASS)
          .concatMap(this::claim)
          .then()
          .onErrorResume(
              e -> {
                log.warn(
                    "a {} dispatch pass failed; the next one retries: {}",
                    profile.kind(),
                    e.toString());
                return Mono.empty();
              });
    }

    private Mono<Void> claim(AgentKey agent) {
      return dispatch
          .claimForRuntime(
              agent, profile.holder(), settings.maxInFlight() - inFlight.get(), settings.leaseTtl())
          .doOnNext(this::run)
          .then();
    }

    /** Runs a claimed offer on its own; the lease it holds makes sure it is never forgotten. */
    private void run(Offer offer) {
      inFlight.incrementAndGet();
      Mono.defer(() -> adapter.run(new LeasedJob(offer, lifecycle, profile, settings)))
          .doFinally(signal -> inFlight.decrementAndGet())
          .subscribe(
              done -> {},
              e ->
                  log.warn(
                      "{} job {} failed; its lease lapses into a reconciliation: {}",
                      profile.kind(),
                      offer.job().id(),
                      e.toString()));
    }

    private Mono<Long> housekeep() {
      return adapter.forgetFinished(clock.instant().minus(settings.recordRetention()), 1000);
    }

    void start() {
      signalled =
          signals
              .on(DatabaseSignals.DISPATCH)
              .map(notification -> Boolean.TRUE)
              .onBackpressureLatest()
              .concatMap(trigger -> pass(), 1)
              .subscribe(n -> {}, e -> log.error("the {} dispatcher stopped", profile.kind(), e));
      periodic.add(
          loops.named(profile.dispatchLoop()).every(settings.pollInterval()).running(this::pass));
      periodic.add(
          loops
              .named(profile.housekeepingLoop())
              .every(HOUSEKEEPING_PERIOD)
              .running(this::housekeep));
      for (RuntimeAdapter.Chore chore : adapter.chores()) {
        periodic.add(loops.named(chore.loop()).every(chore.every()).running(chore.run()));
      }
      periodic.forEach(PeriodicLoop::start);
    }

    void stop() {
      signalled.dispose();
      periodic.forEach(PeriodicLoop::stop);
      periodic.clear();
    }
  }
}
