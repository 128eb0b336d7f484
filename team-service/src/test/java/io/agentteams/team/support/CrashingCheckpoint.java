package io.agentteams.team.support;

import io.agentteams.team.teams.application.ProvisioningCheckpoint;
import io.agentteams.team.teams.domain.ConversationBinding;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

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
  private final Map<String, AtomicInteger> crashes = new ConcurrentHashMap<>();

  @Override
  public Mono<Void> reached(Step step, ConversationBinding binding) {
    return Mono.defer(
        () -> {
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

  /** How many crashes were injected for the agent. */
  public int crashes(String agentId) {
    AtomicInteger count = crashes.get(agentId);
    return count == null ? 0 : count.get();
  }
}
