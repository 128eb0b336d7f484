package io.agentteams.devstack.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One operation of the API description: its method and path template, its path and query parameters
 * and the JSON schema of its body (references resolved on demand).
 *
 * @param method the HTTP method, upper case
 * @param path the path template, e.g. {@code /api/v1/teams/{teamId}/tasks}
 * @param pathParameters names of the path's placeholders
 * @param queryParameters names of its query parameters with their schemas
 * @param body the body's schema, or null when it takes none
 */
record Operation(
    String method,
    String path,
    List<String> pathParameters,
    List<Parameter> queryParameters,
    @Nullable JsonNode body) {

  /** A query parameter and its schema. */
  record Parameter(String name, JsonNode schema) {}

  /** Whether it changes something (so a refusal must leave everything as it was). */
  boolean writes() {
    return !method.equals("GET");
  }

  @Override
  public String toString() {
    return method + " " + path;
  }

  /** Every operation of a merged OpenAPI document. */
  static List<Operation> all(JsonNode apiDocs) {
    List<Operation> operations = new ArrayList<>();
    apiDocs
        .get("paths")
        .properties()
        .forEach(
            path -> {
              path.getValue()
                  .properties()
                  .forEach(
                      entry -> {
                        String method = entry.getKey().toUpperCase(Locale.ROOT);
                        if (!List.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(method)) {
                          return;
                        }
                        JsonNode operation = entry.getValue();
                        List<String> pathParameters = new ArrayList<>();
                        List<Parameter> query = new ArrayList<>();
                        for (JsonNode parameter : operation.path("parameters")) {
                          String in = parameter.get("in").asString();
                          if (in.equals("path")) {
                            pathParameters.add(parameter.get("name").asString());
                          } else if (in.equals("query")) {
                            query.add(
                                new Parameter(
                                    parameter.get("name").asString(), parameter.path("schema")));
                          }
                        }
                        JsonNode body =
                            operation
                                .path("requestBody")
                                .path("content")
                                .path("application/json")
                                .path("schema");
                        operations.add(
                            new Operation(
                                method,
                                path.getKey(),
                                pathParameters,
                                query,
                                body.isMissingNode() ? null : body));
                      });
            });
    return operations;
  }
}
