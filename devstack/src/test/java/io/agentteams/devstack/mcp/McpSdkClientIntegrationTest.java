package io.agentteams.devstack.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gateway's MCP endpoint as the official MCP Java SDK client sees it (streamable HTTP): version
 * negotiation up to 2025-11-25, the member tools with their input and output schemas, a call
 * answered with structured content, a refused call as an {@code isError} result, and the
 * protocol-version header checked on every request.
 */
@RealInfrastructure
class McpSdkClientIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void theOfficialSdkClientNegotiatesListsAndCallsTheMemberTools() throws Exception {
    String gateway = SharedStack.get().url(Service.GATEWAY);
    Api api = new Api(gateway);
    String owner = api.ownerToken("mina-mcp");
    for (String agent : List.of("mcp-lead", "mcp-peer")) {
      api.post(
              "/api/v1/agents",
              owner,
              Map.of("id", agent, "name", agent, "runtime", Map.of("kind", "pull")))
          .ok();
    }
    String teamId =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Tool users",
                    "goal",
                    "Use the tools over MCP",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "mcp-lead", "lead", true),
                        Map.of("name", "peer", "agent_id", "mcp-peer"))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + teamId, owner).ok().get("status").asString(),
            "ready"::equals);
    String member = api.memberToken(owner, teamId, "lead");

    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(gateway)
            .endpoint("/api/v1/mcp")
            .httpRequestCustomizer(
                (request, method, uri, body, context) ->
                    request.header("Authorization", "Bearer " + member))
            .build();
    try (McpSyncClient client =
        McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
      McpSchema.InitializeResult initialized = client.initialize();
      assertThat(initialized.protocolVersion()).isEqualTo(ProtocolVersions.MCP_2025_11_25);
      assertThat(initialized.capabilities().tools()).isNotNull();
      assertThat(initialized.serverInfo().name()).isEqualTo("agent-teams");

      McpSchema.ListToolsResult tools = client.listTools();
      assertThat(tools.tools())
          .extracting(McpSchema.Tool::name)
          .contains("read_team_context", "send_message", "list_tasks", "create_task");
      assertThat(tools.tools())
          .allSatisfy(tool -> assertThat(tool.inputSchema()).containsEntry("type", "object"));
      McpSchema.Tool context =
          tools.tools().stream()
              .filter(tool -> tool.name().equals("read_team_context"))
              .findFirst()
              .orElseThrow();
      assertThat(context.outputSchema()).containsEntry("type", "object");

      McpSchema.CallToolResult read =
          client.callTool(
              new McpSchema.CallToolRequest("read_team_context", Map.of("team_id", teamId)));
      assertThat(read.isError()).isFalse();
      assertThat(read.structuredContent()).isInstanceOf(Map.class);
      assertThat(((Map<?, ?>) read.structuredContent()).get("goal"))
          .isEqualTo("Use the tools over MCP");
      assertThat(read.content()).first().isInstanceOf(McpSchema.TextContent.class);

      McpSchema.CallToolResult refused =
          client.callTool(
              new McpSchema.CallToolRequest(
                  "read_team_result",
                  Map.of("team_id", teamId, "job_id", UUID.randomUUID().toString())));
      assertThat(refused.isError()).isTrue();
      assertThat(((McpSchema.TextContent) refused.content().get(0)).text()).contains("404");
    }

    // The protocol-version header is checked: an unsupported one is refused with 400.
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> wrongVersion =
        http.send(
            HttpRequest.newBuilder(URI.create(gateway + "/api/v1/mcp"))
                .header("Authorization", "Bearer " + member)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "1999-01-01")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(wrongVersion.statusCode()).isEqualTo(400);
    JsonNode error = api.json(wrongVersion.body());
    assertThat(error.get("error").get("message").asString()).contains("1999-01-01");
    // An older client gets the version it asked for.
    HttpResponse<String> older =
        http.send(
            HttpRequest.newBuilder(URI.create(gateway + "/api/v1/mcp"))
                .header("Authorization", "Bearer " + member)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                            + "{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"old\",\"version\":\"1\"}}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(api.json(older.body()).get("result").get("protocolVersion").asString())
        .isEqualTo("2025-03-26");
  }
}
