package io.agentteams.devstack.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentteams.gateway.tools.ToolCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * Calls member tools as {@code GET /api/v1/tools} lists them (method, path, where each input goes,
 * mapped the way the gateway's MCP server maps them) and checks every result against the tool's
 * declared result schema.
 */
public final class MemberTools {

  private final Api api;
  private final Map<String, ToolCatalog.Tool> tools = new LinkedHashMap<>();
  private final Map<String, Schema> resultSchemas = new LinkedHashMap<>();
  private final Set<String> checked = ConcurrentHashMap.newKeySet();

  public MemberTools(Api api, String anyToken) {
    this.api = api;
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    for (JsonNode tool : api.get("/api/v1/tools", anyToken).ok().get("tools")) {
      String name = tool.get("name").asString();
      tools.put(
          name,
          new ToolCatalog.Tool(
              name,
              tool.get("description").asString(),
              tool.get("method").asString(),
              tool.get("path").asString(),
              tool.get("input_schema"),
              tool.get("result_schema")));
      resultSchemas.put(name, registry.getSchema(tool.get("result_schema")));
    }
  }

  /** Every tool the catalog lists. */
  public Set<String> names() {
    return tools.keySet();
  }

  /** The tools whose results were checked against their schemas. */
  public Set<String> checked() {
    return Set.copyOf(checked);
  }

  /** Calls a tool, asserts success and that the result matches its schema, and returns it. */
  public JsonNode call(String name, String memberToken, Map<String, ?> input) {
    Api.Response response = raw(name, memberToken, input);
    JsonNode result = response.ok();
    assertThat(resultSchemas.get(name).validate(result))
        .as("%s result %s against its schema", name, response.raw())
        .isEmpty();
    checked.add(name);
    return result;
  }

  /**
   * Calls a tool through the gateway's MCP server ({@code tools/call}), asserts success and that
   * its structured result matches the tool's schema, and returns that result.
   */
  public JsonNode callOverMcp(String name, String memberToken, Map<String, ?> input) {
    Api.Response response =
        api.post(
            "/api/v1/mcp",
            memberToken,
            Map.of(
                "jsonrpc",
                "2.0",
                "id",
                1,
                "method",
                "tools/call",
                "params",
                Map.of("name", name, "arguments", input)));
    JsonNode result = response.ok().get("result");
    assertThat(result).as("MCP answer %s", response.raw()).isNotNull();
    assertThat(result.get("isError").asBoolean()).as(response.raw()).isFalse();
    JsonNode structured = result.get("structuredContent");
    assertThat(resultSchemas.get(name).validate(structured)).as(response.raw()).isEmpty();
    return structured;
  }

  /** Calls a tool and returns the answer whatever it is (for refusals and conflicts). */
  public Api.Response raw(String name, String memberToken, Map<String, ?> input) {
    ToolCatalog.Tool tool = tools.get(name);
    assertThat(tool).as("tool %s", name).isNotNull();
    ToolCatalog.Invocation call = tool.invocation(api.tree(input));
    return api.call(call.method(), call.target(), memberToken, call.body());
  }
}
