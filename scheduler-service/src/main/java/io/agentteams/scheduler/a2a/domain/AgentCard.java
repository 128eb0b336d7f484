package io.agentteams.scheduler.a2a.domain;

import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * What the runtime needs from an A2A agent's card: the URL of its A2A 1.0 JSON-RPC interface and
 * whether it streams.
 *
 * @param interfaceUrl where JSON-RPC requests go
 * @param streaming whether the card says the agent supports SendStreamingMessage and
 *     SubscribeToTask
 */
public record AgentCard(String interfaceUrl, boolean streaming) {

  /**
   * Reads a card (untrusted data): the first interface with the JSON-RPC binding at protocol
   * version 1.x.
   *
   * @throws IllegalArgumentException naming what is missing
   */
  public static AgentCard read(JsonNode card) {
    JsonNode interfaces = card.path("supportedInterfaces");
    if (!interfaces.isArray() || interfaces.isEmpty()) {
      throw new IllegalArgumentException("the agent card lists no supportedInterfaces");
    }
    for (JsonNode candidate : interfaces) {
      String binding = candidate.path("protocolBinding").asString("").toUpperCase(Locale.ROOT);
      String version = candidate.path("protocolVersion").asString("");
      String url = candidate.path("url").asString("");
      if (binding.equals("JSONRPC") && version.startsWith("1.") && !url.isBlank()) {
        return new AgentCard(url, card.path("capabilities").path("streaming").asBoolean(false));
      }
    }
    throw new IllegalArgumentException(
        "the agent card offers no JSON-RPC interface at A2A protocol version 1.x");
  }
}
