package io.agentteams.sdk.agents;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An agent in its owner's catalog.
 *
 * @param id the owner's id for it
 * @param name its display name
 * @param description what it does (searched when teams are formed)
 * @param runtime how its jobs reach it
 * @param toolGroups the tool groups it uses
 * @param revision increases with every change
 * @param createdAt when it was registered
 * @param updatedAt when it last changed
 */
public record Agent(
    String id,
    String name,
    @Nullable String description,
    Runtime runtime,
    List<String> toolGroups,
    long revision,
    Instant createdAt,
    Instant updatedAt) {

  /**
   * How an agent's jobs reach it.
   *
   * @param kind {@code pull} (a worker holds the job stream), {@code webhook} or {@code a2a}
   * @param endpoint where push runtimes are called; null for {@code pull}
   */
  public record Runtime(String kind, @Nullable String endpoint) {

    /** An agent whose worker pulls its jobs from the job stream. */
    public static Runtime pull() {
      return new Runtime("pull", null);
    }
  }
}
