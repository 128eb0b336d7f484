package io.agentteams.team.support;

import io.agentteams.team.teams.application.ProvisioningCheckpoint;
import io.agentteams.team.teams.domain.ConversationBinding;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Kills a provisioning worker at a chosen step of a chosen member (by agent id), once: the worker's
 * run dies there with nothing further written, as if its process had stopped. The claim's lease
 * then runs out and the team is picked up again, as after a restart.
 */
public final class CrashingCheckpoint implements ProvisioningCheckpoint {

  /** What a crash looks like to the worker. */
  public static final class SimulatedCrash extends RuntimeException {
    SimulatedCrash(String message) {
      super(message);
    }
  }

  private final Map<String, Step> armed = new ConcurrentHashMap<>();
  private final Map<String, Pause> pauses = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> arrivals = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> crashes = new ConcurrentHashMap<>();

  @Override
  public Mono<Void> reached(Step step, ConversationBinding binding) {
    return Mono.defer(
        () -> {
          arrivals
              .computeIfAbsent(binding.agentId() + "@" + step, k -> new AtomicInteger())
              .incrementAndGet();
          Pause pause = pauses.get(binding.agentId());
          if (pause != null && pause.step == step && pauses.remove(binding.agentId(), pause)) {
            pause.reached.tryEmitEmpty();
            return pause.released.asMono();
          }
          if (armed.remove(binding.agentId(), step)) {
            crashes.computeIfAbsent(binding.agentId(), k -> new AtomicInteger()).incrementAndGet();
            return Mono.error(
                new SimulatedCrash(
                    "crash at " + step + " of " + binding.member() + " in " + binding.teamId()));
          }
          return Mono.empty();
        });
  }

  /** The next worker to reach {@code step} for a member bound to the agent dies there. */
  public void crashOnceAt(Step step, String agentId) {
    armed.put(agentId, step);
  }

  /**
   * The next worker to reach {@code step} for a member bound to the agent stops there until the
   * test releases it, as a worker on a stalled replica would.
   */
  public Pause pauseOnceAt(Step step, String agentId) {
    Pause pause = new Pause(step);
    pauses.put(agentId, pause);
    return pause;
  }

  /** A worker held at a step. */
  public static final class Pause {
    private final Step step;
    private final Sinks.Empty<Void> reached = Sinks.empty();
    private final Sinks.Empty<Void> released = Sinks.empty();

    Pause(Step step) {
      this.step = step;
    }

    /** Completes once a worker is held here. */
    public Mono<Void> reached() {
      return reached.asMono();
    }

    /** Lets the held worker go on. */
    public void release() {
      released.tryEmitEmpty();
    }
  }

  /** How many times workers reached the step for a member bound to the agent. */
  public int arrivals(String agentId, Step step) {
    AtomicInteger count = arrivals.get(agentId + "@" + step);
    return count == null ? 0 : count.get();
  }

  /** How many crashes were injected for the agent. */
  public int crashes(String agentId) {
    AtomicInteger count = crashes.get(agentId);
    return count == null ? 0 : count.get();
  }
}
