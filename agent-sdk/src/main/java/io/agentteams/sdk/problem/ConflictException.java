package io.agentteams.sdk.problem;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * 409: the change conflicts with the current state — a stale revision (the problem carries the
 * current resource, e.g. {@code task}), a lease a newer offer replaced ({@code stale-lease}), or a
 * state the resource is not in.
 */
public final class ConflictException extends ApiException {

  public ConflictException(Problem problem) {
    super(problem);
  }

  /** The current version of the resource, when the problem carries it under {@code name}. */
  public Optional<JsonNode> current(String name) {
    return problem().property(name);
  }
}
