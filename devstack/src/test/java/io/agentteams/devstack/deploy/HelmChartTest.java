package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The chart lints strictly and renders what operators rely on. */
class HelmChartTest {

  private static final Path CHART = Path.of("..", "helm", "agent-teams");
  private static final List<String> SERVICES =
      List.of(
          "ui-gateway",
          "team-service",
          "mailbox-service",
          "task-board-service",
          "scheduler-service");

  private static TemplateCommand withSecrets() {
    return new Helm(CHART)
        .template()
        .withName("at")
        .set("postgres.password", "p")
        .set("identity.internalSecret", "i".repeat(40))
        .set("identity.publicSecret", "p".repeat(40));
  }

  @Test
  void lintsStrictly() {
    LintResult result = new Helm(CHART).lint().strict().call();
    assertThat(result.getMessages()).as("lint messages").noneMatch(m -> m.contains("[ERROR]"));
    assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
  }

  @Test
  void rendersEveryServiceWithProbesAutoscalingAndDisruptionBudgets() {
    List<Map<String, Object>> docs =
        render(withSecrets().set("serviceMonitor.enabled", "true").call());

    for (String service : SERVICES) {
      Map<String, Object> deployment = find(docs, "Deployment", "at-" + service);
      String text = String.valueOf(deployment);
      assertThat(text).contains("/actuator/health/liveness", "/actuator/health/readiness");
      assertThat(text).contains("readOnlyRootFilesystem=true", "runAsNonRoot=true");
      assertThat(find(docs, "HorizontalPodAutoscaler", "at-" + service)).isNotNull();
      assertThat(find(docs, "PodDisruptionBudget", "at-" + service)).isNotNull();
    }
    assertThat(find(docs, "ServiceMonitor", "at")).isNotNull();
    // Secrets come from Secrets, never from plain values in the pod spec.
    String teamService = String.valueOf(find(docs, "Deployment", "at-team-service"));
    assertThat(teamService).contains("secretKeyRef").doesNotContain("value=p,");
  }

  @Test
  void onlyTheGatewayAcceptsTrafficFromOutsideTheRelease() {
    List<Map<String, Object>> docs = render(withSecrets().call());
    for (String service : SERVICES) {
      boolean policed =
          docs.stream()
              .anyMatch(
                  d -> "NetworkPolicy".equals(d.get("kind")) && name(d).equals("at-" + service));
      assertThat(policed).as(service).isEqualTo(!service.equals("ui-gateway"));
    }
  }

  @Test
  void refusesToRenderWithoutSecrets() {
    assertThatThrownBy(() -> new Helm(CHART).template().withName("at").call())
        .hasMessageContaining("required");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> render(String manifest) {
    List<Map<String, Object>> docs = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(manifest)) {
      if (doc instanceof Map<?, ?> map) {
        docs.add((Map<String, Object>) map);
      }
    }
    return docs;
  }

  private static Map<String, Object> find(
      List<Map<String, Object>> docs, String kind, String name) {
    return docs.stream()
        .filter(d -> kind.equals(d.get("kind")) && name(d).equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
  }

  private static String name(Map<String, Object> doc) {
    return String.valueOf(((Map<?, ?>) doc.get("metadata")).get("name"));
  }
}
