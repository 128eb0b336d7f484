package io.agentteams.scheduler.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The system clock plus an offset a test can move forward, so that time-outs measured in minutes
 * are tested without waiting for them. Tests that move it reset it when they end.
 */
public final class TestClock extends Clock {

  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  public void advance(Duration by) {
    offset.updateAndGet(current -> current.plus(by));
  }

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

  /** Replaces the platform's system clock in the test context. */
  @TestConfiguration(proxyBeanMethods = false)
  public static class Configuration {
    @Bean
    TestClock clock() {
      return new TestClock();
    }
  }
}
