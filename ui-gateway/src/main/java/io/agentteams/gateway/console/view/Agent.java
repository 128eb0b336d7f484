package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A registered agent of the owner's catalog. */
public record Agent(
    String id,
    String name,
    String description,
    Runtime runtime,
    List<String> toolGroups,
    long revision,
    Instant createdAt,
    Instant updatedAt) {

  public Agent {
    toolGroups = toolGroups == null ? List.of() : List.copyOf(toolGroups);
  }

  /** How the agent runs: {@code pull}, {@code webhook} or {@code a2a}, and where. */
  public record Runtime(String kind, @Nullable String endpoint) {}

  /**
   * Whether its jobs are taken by a worker that holds a stream (so "connected" means something).
   */
  public boolean pull() {
    return "pull".equals(runtime.kind());
  }

  /** Whether its jobs are pushed to it signed, so it has a signing secret to rotate. */
  public boolean webhook() {
    return "webhook".equals(runtime.kind());
  }
}
