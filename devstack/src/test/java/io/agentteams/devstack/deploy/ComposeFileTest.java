package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The compose file runs the whole product and exposes only what people use. */
class ComposeFileTest {

  @Test
  @SuppressWarnings("unchecked")
  void runsKafkaPostgresTheFiveServicesPrometheusAndGrafanaExposingOnlyTheGateway()
      throws IOException {
    Map<String, Object> compose =
        new Yaml().load(Files.readString(Path.of("..", "docker-compose.yml")));
    Map<String, Map<String, Object>> services =
        (Map<String, Map<String, Object>>) compose.get("services");
    assertThat(services.keySet())
        .containsExactlyInAnyOrder(
            "kafka",
            "postgres",
            "team-service",
            "mailbox-service",
            "task-board-service",
            "scheduler-service",
            "ui-gateway",
            "prometheus",
            "grafana");
    services.forEach(
        (name, service) -> {
          List<String> ports = (List<String>) service.get("ports");
          if (List.of("ui-gateway", "prometheus", "grafana").contains(name)) {
            assertThat(ports).as(name).allMatch(p -> p.startsWith("127.0.0.1:"));
          } else {
            assertThat(ports).as(name + " is reachable inside the network only").isNull();
          }
        });
    for (String service :
        List.of("team-service", "mailbox-service", "task-board-service", "scheduler-service")) {
      Map<String, Object> env = (Map<String, Object>) services.get(service).get("environment");
      assertThat(env).containsKeys("SPRING_R2DBC_URL", "SPRING_FLYWAY_URL", "SERVER_PORT");
      assertThat(Files.exists(Path.of("..", service, "Dockerfile"))).as(service).isTrue();
    }
  }
}
