package io.agentteams.gateway.apidocs;

import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The worker protocol beside the OpenAPI document: {@code GET /v3/asyncapi} is the AsyncAPI 3.0
 * description of the job stream and the team and member event streams, and {@code GET
 * /v3/schemas/{name}.json} the JSON Schemas of their payloads and of the report bodies. Both are
 * files of the gateway, read once.
 */
@RestController
@Hidden
public class StreamDocsController {

  /** The schemas served, by name. */
  static final Set<String> SCHEMAS =
      Set.of("offer", "interrupt", "report", "usage", "report-answer", "team-event", "reset");

  private final String asyncApi;
  private final Map<String, String> schemas = new TreeMap<>();

  public StreamDocsController() {
    this.asyncApi = read("apidocs/asyncapi.json");
    for (String name : SCHEMAS) {
      schemas.put(name, read("apidocs/schemas/" + name + ".json"));
    }
  }

  @GetMapping(value = "/v3/asyncapi", produces = MediaType.APPLICATION_JSON_VALUE)
  public String asyncApi() {
    return asyncApi;
  }

  @GetMapping(value = "/v3/schemas/{name}.json", produces = "application/schema+json")
  public ResponseEntity<String> schema(@PathVariable String name) {
    String schema = schemas.get(name);
    return schema == null ? ResponseEntity.notFound().build() : ResponseEntity.ok(schema);
  }

  private static String read(String resource) {
    try (InputStream in =
        StreamDocsController.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
