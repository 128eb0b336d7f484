package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules the chart and compose ship are valid Prometheus rules, and their promtool unit
 * tests pass, with a case for every alert where it fires on its synthetic series and one where it
 * stays quiet on a healthy one.
 */
class AlertRulesTest {

  static final Path ALERTS = Path.of("..", "helm", "agent-teams", "alerts");
  static final Path RULES = ALERTS.resolve("agent-teams-alerts.yml");
  static final Path TESTS = ALERTS.resolve("agent-teams-alerts.test.yml");

  @Test
  void promtoolAcceptsTheRules() throws Exception {
    assertThat(promtool("check", "rules", RULES.toString())).contains("SUCCESS");
  }

  @Test
  void promtoolUnitTestsPass() throws Exception {
    assertThat(promtool("test", "rules", TESTS.toString())).contains("SUCCESS");
  }

  @Test
  void everyAlertHasARunbookAndATestWhereItFiresAndOneWhereItStaysQuiet() throws IOException {
    List<Map<String, Object>> alerts = alerts();
    assertThat(alerts).isNotEmpty();
    Set<String> fires = new HashSet<>();
    Set<String> quiet = new HashSet<>();
    for (Map<String, Object> test : list(yaml(TESTS).get("tests"))) {
      for (Map<String, Object> check : list(test.get("alert_rule_test"))) {
        String alert = String.valueOf(check.get("alertname"));
        (list(check.get("exp_alerts")).isEmpty() ? quiet : fires).add(alert);
      }
    }
    for (Map<String, Object> alert : alerts) {
      String name = String.valueOf(alert.get("alert"));
      assertThat(fires).as("a case where %s fires", name).contains(name);
      assertThat(quiet).as("a case where %s stays quiet", name).contains(name);
      assertThat(map(alert.get("annotations")))
          .as("%s annotations", name)
          .containsKeys("summary", "description", "runbook");
      assertThat(map(alert.get("labels"))).as("%s labels", name).containsKey("severity");
    }
  }

  /** Every alerting rule of the rules file. */
  static List<Map<String, Object>> alerts() throws IOException {
    List<Map<String, Object>> alerts = new ArrayList<>();
    for (Map<String, Object> group : list(yaml(RULES).get("groups"))) {
      for (Map<String, Object> rule : list(group.get("rules"))) {
        if (rule.containsKey("alert")) {
          alerts.add(rule);
        }
      }
    }
    return alerts;
  }

  static Map<String, Object> yaml(Path file) throws IOException {
    return new Yaml().load(Files.readString(file));
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Object value) {
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value == null ? Map.of() : (Map<String, Object>) value;
  }

  /** Runs promtool (bin/test installs it from the OS packages) and returns what it printed. */
  private static String promtool(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
