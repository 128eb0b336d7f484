package io.agentteams.devstack.fuzz;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;
import tools.jackson.databind.JsonNode;

/**
 * Request bodies generated from an operation's schema: mostly the fields the schema names with
 * plausible or awkward values, wrong types, missing and unknown and repeated fields; and now and
 * then no JSON at all, JSON nested deeper than any parser should follow, or more than the gateway
 * accepts.
 */
final class Bodies {

  private final JsonNode components;
  private final Map<String, String> plausible;

  /**
   * @param apiDocs the API description, whose components the schemas refer to
   * @param plausible values that pass validation for fields of these names (ids of the fixture)
   */
  Bodies(JsonNode apiDocs, Map<String, String> plausible) {
    this.components = apiDocs.path("components").path("schemas");
    this.plausible = Map.copyOf(plausible);
  }

  /** A body for an operation whose schema is given (or none). */
  Arbitrary<String> body(JsonNode schema) {
    Arbitrary<String> fromSchema =
        schema == null ? Arbitraries.just("{}") : value(schema, 0).map(Json::write);
    return Arbitraries.frequencyOf(
        Tuple.of(12, fromSchema),
        Tuple.of(
            2,
            Arbitraries.of(
                "",
                "{",
                "}",
                "[]",
                "null",
                "\"text\"",
                "12",
                "{\"a\":",
                "{}x",
                "{\"a\":1}}",
                "\u0000",
                "{\"\u0000\":1}",
                "{'single':'quotes'}",
                "{\"a\":NaN}",
                "{\"a\":01}")),
        Tuple.of(1, Arbitraries.of(10, 100, 2_000, 100_000).map(Bodies::nested)),
        Tuple.of(1, Arbitraries.just("{\"text\":\"" + "x".repeat(1_100_000) + "\"}")));
  }

  private static String nested(int depth) {
    return "{\"a\":" + "[".repeat(depth) + "1" + "]".repeat(depth) + "}";
  }

  /** A value for the schema, or one of the wrong type. */
  Arbitrary<Object> value(JsonNode schema, int depth) {
    JsonNode resolved = resolve(schema);
    return Arbitraries.frequencyOf(Tuple.of(9, typed(resolved, depth)), Tuple.of(1, wrongType()));
  }

  private Arbitrary<Object> typed(JsonNode schema, int depth) {
    if (schema.has("enum")) {
      List<Object> values = new ArrayList<>();
      schema.get("enum").forEach(v -> values.add(v.isString() ? v.asString() : v.toString()));
      return Arbitraries.frequencyOf(
          Tuple.of(3, Arbitraries.of(values)), Tuple.of(1, Awkward.text().map(s -> (Object) s)));
    }
    String type = schema.path("type").isString() ? schema.path("type").asString() : "";
    if (type.isEmpty() && schema.has("properties")) {
      type = "object";
    }
    return switch (type) {
      case "string" -> Awkward.text().map(s -> (Object) s);
      case "integer", "number" ->
          Arbitraries.frequencyOf(
              Tuple.of(2, Arbitraries.of(0L, 1L, 2L).map(n -> (Object) n)),
              Tuple.of(3, Awkward.number().map(n -> (Object) new Json.Literal(n))));
      case "boolean" -> Arbitraries.of(true, false).map(b -> (Object) b);
      case "array" ->
          depth > 3
              ? Arbitraries.just(List.of())
              : value(schema.path("items"), depth + 1).list().ofMaxSize(3).map(l -> (Object) l);
      case "object" ->
          depth > 3 ? Arbitraries.just(new Json.Fields(List.of())) : object(schema, depth);
      default -> wrongType();
    };
  }

  private Arbitrary<Object> object(JsonNode schema, int depth) {
    List<Arbitrary<List<Map.Entry<String, Object>>>> fields = new ArrayList<>();
    schema
        .path("properties")
        .properties()
        .forEach(
            property -> {
              String name = property.getKey();
              Arbitrary<Object> value =
                  plausible.containsKey(name)
                      ? Arbitraries.frequencyOf(
                          Tuple.of(3, Arbitraries.just((Object) plausible.get(name))),
                          Tuple.of(2, value(property.getValue(), depth + 1)))
                      : value(property.getValue(), depth + 1);
              // Present once (mostly), absent, or twice with different values.
              fields.add(
                  Arbitraries.frequencyOf(
                      Tuple.of(7, value.map(v -> List.of(entry(name, v)))),
                      Tuple.of(2, Arbitraries.just(List.of())),
                      Tuple.of(
                          1,
                          Arbitraries.of("first", "second")
                              .flatMap(
                                  first ->
                                      value.map(
                                          v -> List.of(entry(name, first), entry(name, v)))))));
            });
    fields.add(
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.just(List.<Map.Entry<String, Object>>of())),
            Tuple.of(1, Arbitraries.just(List.of(entry("unknown_field", "x")))),
            Tuple.of(1, Arbitraries.just(List.of(entry("", 1))))));
    return net.jqwik.api.Combinators.combine(fields)
        .as(
            parts -> {
              List<Map.Entry<String, Object>> all = new ArrayList<>();
              parts.forEach(all::addAll);
              return (Object) new Json.Fields(all);
            });
  }

  private static Map.Entry<String, Object> entry(String name, Object value) {
    return new AbstractMap.SimpleImmutableEntry<>(name, value);
  }

  private static Arbitrary<Object> wrongType() {
    return Arbitraries.of(
        new Json.Literal("null"),
        Boolean.TRUE,
        new Json.Literal("12"),
        "text",
        List.of(),
        List.of(1, "two"),
        new Json.Fields(List.of()));
  }

  private JsonNode resolve(JsonNode schema) {
    JsonNode current = schema;
    for (int hops = 0; hops < 10 && current.has("$ref"); hops++) {
      // "#/components/schemas/<name>"
      String ref = current.get("$ref").asString();
      current = components.path(ref.substring(ref.lastIndexOf('/') + 1));
    }
    if (current.has("allOf")) {
      return resolve(current.get("allOf").get(0));
    }
    if (current.has("oneOf")) {
      return resolve(current.get("oneOf").get(0));
    }
    if (current.has("anyOf")) {
      return resolve(current.get("anyOf").get(0));
    }
    return current;
  }
}
