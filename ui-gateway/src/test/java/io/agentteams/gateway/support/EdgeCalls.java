package io.agentteams.gateway.support;

import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Calls the gateway's tests make at its edge: tokens, member tokens and MCP requests. */
public final class EdgeCalls {

  private EdgeCalls() {}

  /** A development token for the owner. */
  public static String devToken(WebTestClient web, String owner) {
    return (String)
        web.post()
            .uri("/dev/tokens")
            .bodyValue(Map.of("owner_id", owner))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody()
            .get("access_token");
  }

  /** A token minted at {@code path} (a member or worker token) with the owner's token. */
  public static String mint(WebTestClient web, String path, String token) {
    return (String)
        web.post()
            .uri(path)
            .header("Authorization", "Bearer " + token)
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody()
            .get("access_token");
  }

  /** A member token for the stub team's member {@link StubServices#MEMBER}. */
  public static String memberToken(WebTestClient web, String ownerToken) {
    return mint(
        web,
        "/api/v1/teams/" + StubServices.TEAM + "/members/" + StubServices.MEMBER + "/tokens",
        ownerToken);
  }

  /** An MCP request answered with 200, and its JSON-RPC response. */
  public static Map<?, ?> mcp(WebTestClient web, String token, Map<String, ?> request) {
    return web.post()
        .uri("/api/v1/mcp")
        .header("Authorization", "Bearer " + token)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(request)
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  /** A JSON-RPC {@code tools/call} request. */
  public static Map<String, ?> toolCall(int id, String tool, Map<String, ?> arguments) {
    return Map.of(
        "jsonrpc",
        "2.0",
        "id",
        id,
        "method",
        "tools/call",
        "params",
        Map.of("name", tool, "arguments", arguments));
  }
}
