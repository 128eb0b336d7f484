package io.agentteams.devstack.observability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Grafana dashboards the chart ships and compose provisions. */
final class Dashboards {

  static final Path FOLDER = Path.of("..", "helm", "agent-teams", "dashboards");

  private static final JsonMapper json = JsonMapper.builder().build();

  private Dashboards() {}

  /** Every dashboard file. */
  static List<Path> files() {
    try (Stream<Path> files = Files.list(FOLDER)) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode read(Path file) {
    try {
      return json.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every panel query, keyed "dashboard file / panel title / refId". */
  static Map<String, String> expressions() {
    Map<String, String> expressions = new LinkedHashMap<>();
    for (Path file : files()) {
      for (JsonNode panel : read(file).path("panels")) {
        for (JsonNode target : panel.path("targets")) {
          expressions.put(
              file.getFileName()
                  + " / "
                  + panel.path("title").asString()
                  + " / "
                  + target.path("refId").asString(),
              target.path("expr").asString());
        }
      }
    }
    return expressions;
  }
}
