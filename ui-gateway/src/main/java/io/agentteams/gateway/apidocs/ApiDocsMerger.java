package io.agentteams.gateway.apidocs;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Merges OpenAPI documents into one: each source's public paths ({@code /api/}) and its schemas,
 * renamed with the source's prefix (so two services' {@code TeamView} never collide) with every
 * reference rewritten; the shared {@code Problem} schema once; operations tagged by source.
 */
public final class ApiDocsMerger {

  private static final String SCHEMA_REF = "#/components/schemas/";
  private static final String SHARED = "Problem";

  private final JsonMapper mapper;

  public ApiDocsMerger(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /** One source document: its prefix for schema names, its tag, and the document. */
  public record Source(String prefix, String tag, JsonNode document) {}

  public ObjectNode merge(
      String title, String version, List<Source> sources, List<String> unavailable) {
    ObjectNode merged = mapper.createObjectNode();
    merged.put("openapi", "3.1.0");
    ObjectNode info = merged.putObject("info");
    info.put("title", title);
    info.put("version", version);
    info.put(
        "description",
        "The public API of Agent Teams, served by the ui-gateway. Errors are Problem Details"
            + " (application/problem+json). Authenticate with a bearer token.");
    merged.putArray("security").addObject().putArray("bearer");
    ObjectNode paths = merged.putObject("paths");
    ObjectNode components = merged.putObject("components");
    ObjectNode schemas = components.putObject("schemas");
    components
        .putObject("securitySchemes")
        .putObject("bearer")
        .put("type", "http")
        .put("scheme", "bearer");
    ArrayNode tags = merged.putArray("tags");
    for (Source source : sources) {
      tags.addObject().put("name", source.tag());
      JsonNode document = rewriteRefs(source.document().deepCopy(), source.prefix());
      JsonNode sourceSchemas = document.path("components").path("schemas");
      for (Map.Entry<String, JsonNode> schema : sourceSchemas.properties()) {
        String name = schema.getKey().equals(SHARED) ? SHARED : source.prefix() + schema.getKey();
        schemas.set(name, schema.getValue());
      }
      for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
        // Internal paths (service to gateway) are no part of the public API.
        if (!path.getKey().startsWith("/api/") || path.getKey().startsWith("/api/internal/")) {
          continue;
        }
        ObjectNode operations = (ObjectNode) path.getValue();
        for (Map.Entry<String, JsonNode> operation : operations.properties()) {
          if (operation.getValue() instanceof ObjectNode op) {
            op.putArray("tags").add(source.tag());
          }
        }
        paths.set(path.getKey(), operations);
      }
    }
    if (!unavailable.isEmpty()) {
      ArrayNode missing = merged.putArray("x-unavailable");
      unavailable.forEach(missing::add);
    }
    return merged;
  }

  private JsonNode rewriteRefs(JsonNode node, String prefix) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.propertyNames().forEach(names::add);
      for (String name : names) {
        JsonNode value = object.get(name);
        if (name.equals("$ref") && value.isString() && value.asString().startsWith(SCHEMA_REF)) {
          String target = value.asString().substring(SCHEMA_REF.length());
          object.put("$ref", SCHEMA_REF + (target.equals(SHARED) ? SHARED : prefix + target));
        } else {
          rewriteRefs(value, prefix);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (Iterator<JsonNode> it = array.iterator(); it.hasNext(); ) {
        rewriteRefs(it.next(), prefix);
      }
    }
    return node;
  }
}
