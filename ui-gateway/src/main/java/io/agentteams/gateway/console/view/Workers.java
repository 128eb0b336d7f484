package io.agentteams.gateway.console.view;

import java.util.Map;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Which of the owner's pull agents have a worker connected now, as the scheduler last said; while
 * it cannot say, every agent is taken as connected (the page never claims a worker is missing
 * without knowing).
 *
 * @param connected the agents with a worker connected, by agent id
 * @param known whether the scheduler answered
 */
public record Workers(Map<String, WorkerStatus> connected, boolean known) {

  public Workers {
    connected = Map.copyOf(connected);
  }

  /** The scheduler could not say. */
  public static Workers unknown() {
    return new Workers(Map.of(), false);
  }

  /** Whether the agent has a worker connected (true while unknown). */
  public boolean connected(String agentId) {
    return !known || connected.containsKey(agentId);
  }

  /** The agent's worker, when one is known to be connected. */
  public @Nullable WorkerStatus of(String agentId) {
    return connected.get(agentId);
  }

  /** As the member states take it. */
  public Predicate<String> asPredicate() {
    return this::connected;
  }
}
