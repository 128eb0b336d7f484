package io.agentteams.gateway.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The member tools of DESIGN.md, read from {@code tools/member-tools.json}. Each tool is one REST
 * call through the gateway with a member token; its schemas are standalone JSON Schema 2020-12
 * documents (the shared definitions each one uses are copied into it), so a client can validate
 * with any library without resolving references elsewhere.
 */
@Component
public class ToolCatalog {

  static final String RESOURCE = "tools/member-tools.json";
  static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

  /** One tool as listed: how to call it and what it takes and returns. */
  public record Tool(
      String name,
      String description,
      String method,
      String path,
      JsonNode inputSchema,
      JsonNode resultSchema) {

    /**
     * The REST call for these arguments: those named in the path fill it, the rest become the query
     * of a GET or the JSON body otherwise.
     *
     * @throws IllegalArgumentException when a path argument is missing or not a string or number
     */
    public Invocation invocation(ObjectNode arguments) {
      ObjectNode rest = arguments.deepCopy();
      StringBuilder target = new StringBuilder();
      Matcher matcher = PLACEHOLDER.matcher(path);
      while (matcher.find()) {
        JsonNode value = rest.remove(matcher.group(1));
        if (value == null || !(value.isString() || value.isNumber())) {
          throw new IllegalArgumentException(name + " needs " + matcher.group(1));
        }
        matcher.appendReplacement(target, Matcher.quoteReplacement(encode(value)));
      }
      matcher.appendTail(target);
      HttpMethod verb = HttpMethod.valueOf(method);
      if (verb != HttpMethod.GET) {
        return new Invocation(verb, target.toString(), rest);
      }
      List<String> query = new ArrayList<>();
      rest.properties()
          .forEach(field -> query.add(field.getKey() + "=" + encode(field.getValue())));
      return new Invocation(
          verb, query.isEmpty() ? target.toString() : target + "?" + String.join("&", query), null);
    }

    private static String encode(JsonNode value) {
      return URLEncoder.encode(value.asString(), StandardCharsets.UTF_8);
    }
  }

  /**
   * A tool's REST call.
   *
   * @param method the HTTP method
   * @param target the path with its query, relative to the gateway
   * @param body the JSON body, or null for a GET
   */
  public record Invocation(HttpMethod method, String target, @Nullable ObjectNode body) {}

  private final Map<String, Tool> tools = new LinkedHashMap<>();

  public ToolCatalog(JsonMapper mapper) {
    JsonNode document;
    try (InputStream in = new ClassPathResource(RESOURCE).getInputStream()) {
      document = mapper.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    JsonNode definitions = document.path("$defs");
    for (JsonNode tool : document.path("tools")) {
      Tool parsed =
          new Tool(
              tool.path("name").asString(),
              tool.path("description").asString(),
              tool.path("method").asString(),
              tool.path("path").asString(),
              standalone(tool.path("input_schema"), definitions),
              standalone(tool.path("result_schema"), definitions));
      if (tools.put(parsed.name(), parsed) != null) {
        throw new IllegalStateException("tool " + parsed.name() + " is listed twice");
      }
    }
  }

  /** Every tool, in the catalog's order. */
  public List<Tool> all() {
    return List.copyOf(tools.values());
  }

  /** The tool of that name. */
  public Optional<Tool> find(String name) {
    return Optional.ofNullable(tools.get(name));
  }

  private static JsonNode standalone(JsonNode schema, JsonNode definitions) {
    ObjectNode copy = (ObjectNode) schema.deepCopy();
    TreeSet<String> used = new TreeSet<>();
    collectReferences(copy, definitions, used);
    ObjectNode result = copy.objectNode();
    result.put("$schema", DIALECT);
    result.setAll(copy);
    if (!used.isEmpty()) {
      ObjectNode defs = result.putObject("$defs");
      used.forEach(name -> defs.set(name, definitions.get(name).deepCopy()));
    }
    return result;
  }

  /** The definitions a schema refers to, directly or through other definitions. */
  private static void collectReferences(JsonNode node, JsonNode definitions, TreeSet<String> used) {
    List<JsonNode> pending = new ArrayList<>(List.of(node));
    while (!pending.isEmpty()) {
      JsonNode current = pending.remove(pending.size() - 1);
      if (current.isObject()) {
        JsonNode ref = current.get("$ref");
        if (ref != null && ref.isString() && ref.asString().startsWith("#/$defs/")) {
          String name = ref.asString().substring("#/$defs/".length());
          if (!definitions.has(name)) {
            throw new IllegalStateException("undefined schema definition " + name);
          }
          if (used.add(name)) {
            pending.add(definitions.get(name));
          }
        }
        current.values().forEach(pending::add);
      } else if (current.isArray()) {
        current.values().forEach(pending::add);
      }
    }
  }
}
