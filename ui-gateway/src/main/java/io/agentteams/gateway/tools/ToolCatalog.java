package io.agentteams.gateway.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.springframework.core.io.ClassPathResource;
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

  /** One tool as listed: how to call it and what it takes and returns. */
  public record Tool(
      String name,
      String description,
      String method,
      String path,
      JsonNode inputSchema,
      JsonNode resultSchema) {}

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
