package io.agentteams.platform.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The system clock plus an offset a test can move forward, so that time-outs measured in minutes
 * are tested without waiting for them. Import {@link Config} to make it the application's clock.
 */
public final class TestClock extends Clock {

  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  /** Moves the clock forward. */
  public void advance(Duration by) {
    offset.accumulateAndGet(by, Duration::plus);
  }

  /** Back to the system clock, for a test that moved it and shares its context with others. */
  public void reset() {
    offset.set(Duration.ZERO);
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

  /** Replaces the platform's system clock in a test context. */
  @Configuration(proxyBeanMethods = false)
  public static class Config {
    @Bean
    @Primary
    TestClock testClock() {
      return new TestClock();
    }
  }
}
