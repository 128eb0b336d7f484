package io.agentteams.scheduler.runtime.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters a runtime adapter keeps of its wire, besides the lifecycle's: a counter of calls and a
 * latency timer (with percentile histograms), each under its own name and tags.
 *
 * @param meters where they are registered
 * @param counter the counter's name
 * @param counterDescription what it counts
 * @param timer the timer's name
 * @param timerDescription what it times
 */
public record WireMeters(
    MeterRegistry meters,
    String counter,
    String counterDescription,
    String timer,
    String timerDescription) {

  /** The counter with these tags (key, value, ...). */
  public Counter count(String... tags) {
    return Counter.builder(counter)
        .description(counterDescription)
        .tags(Tags.of(tags))
        .register(meters);
  }

  /** The timer with these tags (key, value, ...). */
  public Timer latency(String... tags) {
    return Timer.builder(timer)
        .description(timerDescription)
        .tags(Tags.of(tags))
        .publishPercentileHistogram()
        .register(meters);
  }
}
