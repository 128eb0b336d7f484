package io.agentteams.team.agents.domain;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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
        throw AgentProblems.unexpectedEndpoint();
      }
      return pull();
    }
    if (endpoint == null || endpoint.isBlank()) {
      throw AgentProblems.missingEndpoint(runtimeKind);
    }
    int bytes = endpoint.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > endpointMaxBytes) {
      throw AgentProblems.endpointTooLong(endpointMaxBytes, bytes);
    }
    URI uri;
    try {
      uri = new URI(endpoint);
    } catch (URISyntaxException e) {
      throw AgentProblems.invalidEndpoint(endpoint, "it is not a URI");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw AgentProblems.invalidEndpoint(endpoint, "it must be an absolute http or https URL");
    }
    if (uri.getHost() == null) {
      throw AgentProblems.invalidEndpoint(endpoint, "it names no host");
    }
    if (uri.getRawUserInfo() != null) {
      throw AgentProblems.invalidEndpoint(endpoint, "credentials do not belong in the URL");
    }
    return new AgentRuntime(runtimeKind, endpoint);
  }
}
