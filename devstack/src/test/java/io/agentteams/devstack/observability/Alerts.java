package io.agentteams.devstack.observability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** The alert rules the chart ships and compose loads. */
final class Alerts {

  static final Path RULES =
      Path.of("..", "helm", "agent-teams", "alerts", "agent-teams-alerts.yml");

  private Alerts() {}

  /** Every rule's expression, keyed "alert name". */
  @SuppressWarnings("unchecked")
  static Map<String, String> expressions() {
    Map<String, String> expressions = new LinkedHashMap<>();
    try {
      Map<String, Object> rules = new Yaml().load(Files.readString(RULES));
      for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
        for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
          Object name = rule.containsKey("alert") ? rule.get("alert") : rule.get("record");
          expressions.put("alert " + name, String.valueOf(rule.get("expr")));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return expressions;
  }
}
