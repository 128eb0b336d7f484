package io.agentteams.platform.loop;

import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Builds {@link PeriodicLoop}s with the shared settings and meters: {@code
 * loops.named("claim-sweep").every(interval).running(sweeper::sweepOnce)}. A service declares each
 * loop as a bean, so the application starts and stops it.
 */
public final class PeriodicLoops {

  private final LoopProperties properties;
  private final MeterRegistry meters;
  private final Scheduler timer;

  public PeriodicLoops(LoopProperties properties, MeterRegistry meters) {
    this(properties, meters, Schedulers.parallel());
  }

  /**
   * @param timer where the waits between runs and the bound of each run are timed (a virtual-time
   *     scheduler in tests)
   */
  public PeriodicLoops(LoopProperties properties, MeterRegistry meters, Scheduler timer) {
    this.properties = properties;
    this.meters = meters;
    this.timer = timer;
  }

  /**
   * Starts describing a loop.
   *
   * @param name lower-case words joined by {@code .} or {@code -}; the {@code loop} tag of its
   *     meters, unique within the service
   */
  public PeriodicLoop.Builder named(String name) {
    return new PeriodicLoop.Builder(name, properties, meters, timer);
  }
}
