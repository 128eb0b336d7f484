package io.agentteams.taskboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The system clock plus an offset that tests advance, so claim time-outs pass without waiting. Time
 * only ever moves forward, so tests sharing the context never see it go back.
 */
public final class TestClock extends Clock {

  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  /** Moves the clock forward. */
  public void advance(Duration by) {
    offset.accumulateAndGet(by, Duration::plus);
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  /** Replaces the platform's system clock in tests. */
  @TestConfiguration(proxyBeanMethods = false)
  public static class Configuration {
    @Bean
    @Primary
    TestClock testClock() {
      return new TestClock();
    }
  }
}
