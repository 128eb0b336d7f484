package io.agentteams.team.agents.domain;

import io.agentteams.platform.problem.LimitExceededException;
import io.agentteams.platform.problem.ProblemException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where and how an agent runs.
 *
 * @param kind pull, webhook or a2a
 * @param endpoint the absolute http(s) URL of a webhook or A2A agent; none for pull agents
 */
public record AgentRuntime(RuntimeKind kind, @Nullable String endpoint) {

  /** A pull agent: its worker comes to us. */
  public static AgentRuntime pull() {
    return new AgentRuntime(RuntimeKind.PULL, null);
  }

  /**
   * A runtime checked against the rules: pull agents name no endpoint; webhook and A2A agents name
   * an absolute http(s) URL without credentials, within {@code endpointMaxBytes}.
   */
  public static AgentRuntime of(
      @Nullable String kind, @Nullable String endpoint, int endpointMaxBytes) {
    RuntimeKind runtimeKind = RuntimeKind.fromWire(kind);
    if (!runtimeKind.needsEndpoint()) {
      if (endpoint != null && !endpoint.isEmpty()) {
        throw ProblemException.invalid(
            "unexpected-endpoint", "a pull agent has no endpoint: its worker pulls jobs");
      }
      return pull();
    }
    if (endpoint == null || endpoint.isBlank()) {
      throw ProblemException.invalid(
          "missing-endpoint", "a " + runtimeKind.wire() + " agent needs an endpoint URL");
    }
    int bytes = endpoint.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > endpointMaxBytes) {
      throw new LimitExceededException(
          "agent.endpoint.max-bytes", "bytes", endpointMaxBytes, bytes);
    }
    URI uri;
    try {
      uri = new URI(endpoint);
    } catch (URISyntaxException e) {
      throw invalidEndpoint(endpoint, "it is not a URI");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw invalidEndpoint(endpoint, "it must be an absolute http or https URL");
    }
    if (uri.getHost() == null) {
      throw invalidEndpoint(endpoint, "it names no host");
    }
    if (uri.getRawUserInfo() != null) {
      throw invalidEndpoint(endpoint, "credentials do not belong in the URL");
    }
    return new AgentRuntime(runtimeKind, endpoint);
  }

  private static ProblemException invalidEndpoint(String endpoint, String why) {
    return new ProblemException(
        ProblemException.Kind.INVALID,
        "invalid-endpoint",
        "endpoint '" + endpoint + "' is not usable: " + why,
        Map.of("endpoint", endpoint));
  }
}
