package io.agentteams.platform.loop;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Work that runs every period for as long as the application runs: a sweeper, a reconciler,
 * housekeeping. Built by {@link PeriodicLoops}; started and stopped with the application.
 *
 * <p>Every replica runs every loop, so what a run works on must be claimed in the database (rows
 * locked with {@code FOR UPDATE SKIP LOCKED}, leases), never decided in memory; then any number of
 * replicas run the loop side by side and each piece of work is done by one of them. Within one
 * process a loop never starts a run while its previous run is still going. A run that takes longer
 * than its bound is cancelled, which rolls back its open transaction and so releases what it had
 * claimed; a run that fails is logged and the next one runs on time. Each wait between runs varies
 * at random by the configured jitter, so that replicas started together do not run in step.
 *
 * <p>Meters, tagged with the loop's name: {@code agentteams.loop.runs} (by outcome: {@code
 * completed}, {@code failed}, {@code timed-out}) and {@code agentteams.loop.run.duration}.
 */
public final class PeriodicLoop implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(PeriodicLoop.class);

  private final String name;
  private final Duration period;
  private final Duration firstAfter;
  private final double jitter;
  private final Duration maxRunDuration;
  private final Supplier<? extends Mono<?>> body;
  private final Scheduler timer;
  private final Counter completed;
  private final Counter failed;
  private final Counter timedOut;
  private final Timer durations;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile Disposable loop = Disposables.disposed();

  PeriodicLoop(
      String name,
      Duration period,
      Duration firstAfter,
      double jitter,
      Duration maxRunDuration,
      Supplier<? extends Mono<?>> body,
      Scheduler timer,
      MeterRegistry meters) {
    this.name = name;
    this.period = period;
    this.firstAfter = firstAfter;
    this.jitter = jitter;
    this.maxRunDuration = maxRunDuration;
    this.body = body;
    this.timer = timer;
    this.completed = runs(meters, "completed");
    this.failed = runs(meters, "failed");
    this.timedOut = runs(meters, "timed-out");
    this.durations =
        Timer.builder("agentteams.loop.run.duration")
            .description("How long one run of a periodic loop took, whatever its outcome")
            .tag("loop", name)
            .register(meters);
  }

  private Counter runs(MeterRegistry meters, String outcome) {
    return Counter.builder("agentteams.loop.runs")
        .description("Runs of a periodic loop, by outcome")
        .tag("loop", name)
        .tag("outcome", outcome)
        .register(meters);
  }

  /** The loop's name, as its meters and logs show it. */
  public String name() {
    return name;
  }

  /** Starts running: the first run after {@code firstAfter}, then every period; idempotent. */
  @Override
  public void start() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    loop =
        Mono.delay(Duration.ofNanos(jittered(firstAfter)), timer)
            .thenMany(Mono.defer(this::cycle).repeat(running::get))
            .subscribe(
                done -> {},
                error -> log.error("periodic loop {} stopped unexpectedly", name, error));
  }

  /** Stops running; a run in progress is cancelled. */
  @Override
  public void stop() {
    running.set(false);
    loop.dispose();
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }

  /** One bounded, measured run, then the wait until the next one starts; never fails. */
  private Mono<Void> cycle() {
    long started = timer.now(TimeUnit.NANOSECONDS);
    return Mono.defer(body)
        .then()
        .timeout(maxRunDuration, Mono.error(new RunTimedOut()), timer)
        .doOnSuccess(done -> completed.increment())
        .onErrorResume(
            error -> {
              if (error instanceof RunTimedOut) {
                timedOut.increment();
                log.warn(
                    "periodic loop {}: a run took longer than {} and was cancelled",
                    name,
                    maxRunDuration);
              } else {
                failed.increment();
                log.warn(
                    "periodic loop {}: a run failed; the next one retries: {}",
                    name,
                    error.toString());
              }
              return Mono.empty();
            })
        .then(
            Mono.defer(
                () -> {
                  long took = timer.now(TimeUnit.NANOSECONDS) - started;
                  durations.record(took, TimeUnit.NANOSECONDS);
                  return Mono.delay(Duration.ofNanos(Math.max(0, jittered(period) - took)), timer);
                }))
        .then();
  }

  private long jittered(Duration wait) {
    long nanos = wait.toNanos();
    if (jitter == 0 || nanos == 0) {
      return nanos;
    }
    double factor = 1 + jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1);
    return (long) (nanos * factor);
  }

  /** A run that outlived its bound. */
  private static final class RunTimedOut extends RuntimeException {
    RunTimedOut() {
      super(null, null, false, false);
    }
  }

  /** Describes one loop; {@link #running} builds it. */
  public static final class Builder {
    private final String name;
    private final LoopProperties properties;
    private final MeterRegistry meters;
    private final Scheduler timer;
    private @Nullable Duration period;
    private @Nullable Duration firstAfter;
    private Duration maxRunDuration;

    Builder(String name, LoopProperties properties, MeterRegistry meters, Scheduler timer) {
      if (!name.matches("[a-z0-9][a-z0-9.-]*")) {
        throw new IllegalArgumentException("a loop name is lower-case words with . or -: " + name);
      }
      this.name = name;
      this.properties = properties;
      this.meters = meters;
      this.timer = timer;
      this.maxRunDuration = properties.maxRunDuration();
    }

    /** The period: a run starts this long after the previous one started, or at once if longer. */
    public Builder every(Duration period) {
      if (period.isNegative() || period.isZero()) {
        throw new IllegalArgumentException("loop " + name + " needs a positive period");
      }
      this.period = period;
      return this;
    }

    /** When the first run starts after {@link #start()}; one period unless set. */
    public Builder firstAfter(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("loop " + name + " cannot start before it starts");
      }
      this.firstAfter = delay;
      return this;
    }

    /** The bound of one run, instead of {@code agentteams.loops.max-run-duration}. */
    public Builder atMost(Duration maxRunDuration) {
      if (maxRunDuration.isNegative() || maxRunDuration.isZero()) {
        throw new IllegalArgumentException("loop " + name + " needs a positive bound per run");
      }
      this.maxRunDuration = maxRunDuration;
      return this;
    }

    /**
     * The loop that runs the body: each run subscribes to a fresh {@code Mono} from it and ends
     * when that completes.
     */
    public PeriodicLoop running(Supplier<? extends Mono<?>> body) {
      if (period == null) {
        throw new IllegalStateException("loop " + name + " needs a period (every)");
      }
      return new PeriodicLoop(
          name,
          period,
          firstAfter == null ? period : firstAfter,
          properties.jitter(),
          maxRunDuration,
          body,
          timer,
          meters);
    }
  }
}
