package io.agentteams.platform.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The loop's timing runs on virtual time: each test advances the clock instead of waiting. */
class PeriodicLoopTest {

  private static final Duration PERIOD = Duration.ofSeconds(10);

  private final VirtualTimeScheduler clock = VirtualTimeScheduler.create();
  private final MeterRegistry meters = new SimpleMeterRegistry();
  private final List<PeriodicLoop> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(PeriodicLoop::stop);
    clock.dispose();
  }

  private PeriodicLoops loops(double jitter) {
    return new PeriodicLoops(new LoopProperties(jitter, Duration.ofSeconds(30)), meters, clock);
  }

  private PeriodicLoop start(PeriodicLoop loop) {
    started.add(loop);
    loop.start();
    return loop;
  }

  @Test
  void runsFirstAfterOnePeriodThenEveryPeriod() {
    List<Long> runAt = new CopyOnWriteArrayList<>();
    PeriodicLoop loop =
        start(
            loops(0)
                .named("test.every")
                .every(PERIOD)
                .running(() -> Mono.fromRunnable(() -> runAt.add(now()))));

    clock.advanceTimeBy(Duration.ofSeconds(9));
    assertThat(runAt).isEmpty();
    clock.advanceTimeBy(Duration.ofSeconds(26));

    assertThat(runAt).containsExactly(10L, 20L, 30L);
    assertThat(loop.isRunning()).isTrue();
    assertThat(runs("test.every", "completed")).isEqualTo(3);
    assertThat(meters.get("agentteams.loop.run.duration").tag("loop", "test.every").timer().count())
        .isEqualTo(3);
  }

  @Test
  void aFirstRunAtStartUpAndAPeriodMeasuredFromEachRunsStart() {
    List<Long> runAt = new CopyOnWriteArrayList<>();
    start(
        loops(0)
            .named("test.slow")
            .every(PERIOD)
            .firstAfter(Duration.ZERO)
            // Each run takes 4 s: the next still starts a period after this one started.
            .running(
                () ->
                    Mono.delay(Duration.ofSeconds(4), clock).doOnSubscribe(s -> runAt.add(now()))));

    clock.advanceTimeBy(Duration.ofSeconds(25));

    assertThat(runAt).containsExactly(0L, 10L, 20L);
  }

  @Test
  void survivesAFailingRunAndRunsAgainOnTime() {
    AtomicInteger attempts = new AtomicInteger();
    start(
        loops(0)
            .named("test.failing")
            .every(PERIOD)
            .running(
                () -> {
                  int attempt = attempts.incrementAndGet();
                  if (attempt == 2) {
                    return Mono.error(new IllegalStateException("database away"));
                  }
                  if (attempt == 3) {
                    throw new IllegalStateException("failed before returning its work");
                  }
                  return Mono.empty();
                }));

    clock.advanceTimeBy(Duration.ofSeconds(45));

    assertThat(attempts.get()).isEqualTo(4);
    assertThat(runs("test.failing", "failed")).isEqualTo(2);
    assertThat(runs("test.failing", "completed")).isEqualTo(2);
  }

  @Test
  void aRunLongerThanItsBoundIsCancelledAndTheNextRunsAfterIt() {
    AtomicInteger cancelled = new AtomicInteger();
    AtomicInteger attempts = new AtomicInteger();
    start(
        loops(0)
            .named("test.stuck")
            .every(PERIOD)
            .atMost(Duration.ofSeconds(25))
            .running(
                () ->
                    attempts.incrementAndGet() == 1
                        ? Mono.never().doOnCancel(cancelled::incrementAndGet)
                        : Mono.empty()));

    clock.advanceTimeBy(Duration.ofSeconds(34));
    assertThat(cancelled.get()).isZero();
    clock.advanceTimeBy(Duration.ofSeconds(1));

    // Stuck from 10 s, cancelled at 35 s, the next run at once (its period had passed).
    assertThat(cancelled.get()).isEqualTo(1);
    assertThat(attempts.get()).isEqualTo(2);
    assertThat(runs("test.stuck", "timed-out")).isEqualTo(1);
    assertThat(runs("test.stuck", "completed")).isEqualTo(1);
  }

  @Test
  void neverRunsTwiceAtOnceWhenARunOutlastsThePeriod() {
    AtomicInteger inRun = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    AtomicInteger runs = new AtomicInteger();
    start(
        loops(0)
            .named("test.overlap")
            .every(PERIOD)
            .running(
                () ->
                    Mono.delay(Duration.ofSeconds(25), clock)
                        .doOnSubscribe(
                            s -> {
                              runs.incrementAndGet();
                              mostAtOnce.accumulateAndGet(inRun.incrementAndGet(), Math::max);
                            })
                        .doFinally(signal -> inRun.decrementAndGet())));

    clock.advanceTimeBy(Duration.ofSeconds(100));

    assertThat(runs.get()).isEqualTo(4);
    assertThat(mostAtOnce.get()).isEqualTo(1);
  }

  @Test
  void stopsOnShutdownCancellingTheRunInProgress() {
    AtomicInteger attempts = new AtomicInteger();
    AtomicInteger cancelled = new AtomicInteger();
    PeriodicLoop loop =
        start(
            loops(0)
                .named("test.stopping")
                .every(PERIOD)
                .running(
                    () -> {
                      attempts.incrementAndGet();
                      return Mono.delay(Duration.ofSeconds(5), clock)
                          .doOnCancel(cancelled::incrementAndGet);
                    }));
    clock.advanceTimeBy(Duration.ofSeconds(12));
    assertThat(attempts.get()).isEqualTo(1);

    loop.stop();
    clock.advanceTimeBy(Duration.ofMinutes(10));

    assertThat(loop.isRunning()).isFalse();
    assertThat(cancelled.get()).isEqualTo(1);
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(runs("test.stopping", "completed")).isZero();
  }

  @Test
  void jitterSpreadsTheWaitsAroundThePeriod() {
    List<Long> runAt = new CopyOnWriteArrayList<>();
    start(
        loops(0.5)
            .named("test.jitter")
            .every(PERIOD)
            .firstAfter(Duration.ZERO)
            .running(() -> Mono.fromRunnable(() -> runAt.add(clock.now(TimeUnit.MILLISECONDS)))));

    clock.advanceTimeBy(Duration.ofMinutes(10));

    List<Long> waits = new ArrayList<>();
    for (int i = 1; i < runAt.size(); i++) {
      waits.add(runAt.get(i) - runAt.get(i - 1));
    }
    assertThat(waits)
        .hasSizeGreaterThan(30)
        .allSatisfy(w -> assertThat(w).isBetween(5_000L, 15_000L));
    assertThat(waits.stream().distinct().count()).as("distinct waits").isGreaterThan(1);
  }

  @Test
  void refusesAMalformedNameOrALoopWithoutAPeriod() {
    assertThatThrownBy(() -> loops(0).named("Claim Sweep"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> loops(0).named("no-period").running(Mono::empty))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new LoopProperties(1.5, PERIOD))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private long now() {
    return clock.now(TimeUnit.SECONDS);
  }

  private long runs(String loop, String outcome) {
    return (long)
        meters
            .get("agentteams.loop.runs")
            .tag("loop", loop)
            .tag("outcome", outcome)
            .counter()
            .count();
  }
}
