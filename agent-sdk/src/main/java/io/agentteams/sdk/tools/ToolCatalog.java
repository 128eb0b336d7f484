package io.agentteams.sdk.tools;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The member tools the gateway lists ({@code GET /api/v1/tools}), and calling one by name with JSON
 * arguments: those named in its path fill it, the rest are the query of a GET or the JSON body
 * otherwise — the same mapping the gateway's MCP server uses.
 */
public final class ToolCatalog {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

  private final Map<String, Tool> tools = new LinkedHashMap<>();

  /** The catalog the gateway serves (read with any token). */
  public static ToolCatalog fetch(HttpTransport http) {
    JsonNode listed = http.tree("GET", ApiPath.of("/api/v1/tools"), null);
    List<Tool> tools = new ArrayList<>();
    for (JsonNode tool : listed.path("tools")) {
      tools.add(http.json().treeToValue(tool, Tool.class));
    }
    return new ToolCatalog(tools);
  }

  public ToolCatalog(List<Tool> tools) {
    tools.forEach(tool -> this.tools.put(tool.name(), tool));
  }

  /** Every tool, in the catalog's order. */
  public List<Tool> all() {
    return List.copyOf(tools.values());
  }

  /** The tool of that name. */
  public Optional<Tool> find(String name) {
    return Optional.ofNullable(tools.get(name));
  }

  /**
   * Calls a tool with the member token the transport holds and returns its JSON result.
   *
   * @throws IllegalArgumentException for an unknown tool or a path argument that is missing
   */
  public JsonNode call(HttpTransport http, String name, ObjectNode arguments) {
    Tool tool =
        find(name).orElseThrow(() -> new IllegalArgumentException("no member tool " + name));
    ObjectNode rest = arguments.deepCopy();
    StringBuilder target = new StringBuilder();
    Matcher matcher = PLACEHOLDER.matcher(tool.path());
    while (matcher.find()) {
      JsonNode value = rest.remove(matcher.group(1));
      if (value == null || !(value.isString() || value.isNumber())) {
        throw new IllegalArgumentException(
            name + " needs " + matcher.group(1) + " (a string or number)");
      }
      matcher.appendReplacement(target, Matcher.quoteReplacement(encode(value)));
    }
    matcher.appendTail(target);
    if (!"GET".equals(tool.method())) {
      return http.tree(tool.method(), ApiPath.of(target.toString()), rest);
    }
    ApiPath path = ApiPath.of(target.toString());
    for (Map.Entry<String, JsonNode> field : rest.properties()) {
      path.query(field.getKey(), field.getValue().asString());
    }
    return http.tree("GET", path, null);
  }

  private static String encode(JsonNode value) {
    return URLEncoder.encode(value.asString(), StandardCharsets.UTF_8).replace("+", "%20");
  }
}
