package io.agentteams.sdk.problem;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An error answer of the API as RFC 9457 Problem Details.
 *
 * @param type the problem type, {@code urn:agentteams:problem:<code>}
 * @param title a short summary of the kind of problem
 * @param status the HTTP status
 * @param detail a sentence for people
 * @param instance the path that was called
 * @param code the stable name of the problem, e.g. {@code stale-lease} or {@code team-limit}
 * @param properties every other member of the problem: the facts a program reacts to (a limit and
 *     the actual value, the current revision of a task, ...)
 */
public record Problem(
    @Nullable String type,
    @Nullable String title,
    int status,
    @Nullable String detail,
    @Nullable String instance,
    @Nullable String code,
    Map<String, JsonNode> properties) {

  public Problem {
    properties = Map.copyOf(new LinkedHashMap<>(properties));
  }

  /** A problem member other than the standard ones, if present. */
  public Optional<JsonNode> property(String name) {
    return Optional.ofNullable(properties.get(name));
  }

  /** A problem made up by the client for an answer that carried none. */
  public static Problem of(int status, String detail) {
    return new Problem(null, null, status, detail, null, null, Map.of());
  }
}
