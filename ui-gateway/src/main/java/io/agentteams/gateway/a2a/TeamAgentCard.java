package io.agentteams.gateway.a2a;

import java.net.URI;
import java.util.UUID;
import org.springframework.web.server.ServerWebExchange;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A team's A2A agent card: the team's name, its goal as the description, one skill per member (the
 * lead named as the one who takes every message), bearer authentication with the owner's token, the
 * JSON-RPC interface at the address the caller used, streaming and push notifications.
 */
final class TeamAgentCard {

  private TeamAgentCard() {}

  static ObjectNode of(JsonMapper json, JsonNode team, String url) {
    ObjectNode card = json.createObjectNode();
    card.put("name", team.path("name").asString("team"));
    card.put("description", team.path("goal").asString(""));
    card.put("version", "1.0.0");
    ObjectNode endpoint = card.putArray("supportedInterfaces").addObject();
    endpoint.put("url", url);
    endpoint.put("protocolBinding", "JSONRPC");
    endpoint.put("protocolVersion", "1.0");
    ObjectNode capabilities = card.putObject("capabilities");
    capabilities.put("streaming", true);
    capabilities.put("pushNotifications", true);
    ObjectNode scheme = card.putObject("securitySchemes").putObject("bearer");
    ObjectNode http = scheme.putObject("httpAuthSecurityScheme");
    http.put("scheme", "Bearer");
    http.put("description", "The team owner's token");
    card.putArray("securityRequirements")
        .addObject()
        .putObject("schemes")
        .putObject("bearer")
        .putArray("list");
    card.putArray("defaultInputModes").add("text/plain");
    card.putArray("defaultOutputModes").add("text/plain");
    var skills = card.putArray("skills");
    for (JsonNode member : team.path("members")) {
      ObjectNode skill = skills.addObject();
      String name = member.path("name").asString("");
      skill.put("id", name);
      skill.put("name", name);
      skill.put(
          "description",
          (member.path("lead").asBoolean(false) ? "The team's lead, who takes every message: " : "")
              + "member '"
              + name
              + "' (agent '"
              + member.path("agent_id").asString("")
              + "')");
      skill.putArray("tags").add(member.path("lead").asBoolean(false) ? "lead" : "member");
    }
    return card;
  }

  /**
   * The team's JSON-RPC address, on the scheme and authority the caller reached this gateway by.
   */
  static String rpcUrl(ServerWebExchange exchange, UUID teamId) {
    URI uri = exchange.getRequest().getURI();
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    return base + "/api/v1/teams/" + teamId + "/a2a";
  }
}
