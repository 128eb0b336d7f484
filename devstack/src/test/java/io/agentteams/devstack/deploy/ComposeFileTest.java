package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.GeneratedSecrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** The compose file runs the whole product and exposes only what people use. */
class ComposeFileTest {

  private static final Path COMPOSE = Path.of("..", "docker-compose.yml");
  private static final List<String> WITH_DATABASE =
      List.of("team-service", "mailbox-service", "task-board-service", "scheduler-service");

  @TempDir Path temp;

  @Test
  void dockerComposeAcceptsTheFileWithTheGeneratedSecretsAndRefusesWithoutThem() throws Exception {
    // Debian's docker-compose validates offline (bin/test installs it); no engine is needed.
    Path env = temp.resolve(".env");
    Map<String, String> secrets = GeneratedSecrets.generate();
    Files.writeString(env, GeneratedSecrets.render(secrets));
    Result accepted = config(env);
    assertThat(accepted.exitCode()).as(accepted.output()).isZero();
    Map<String, Object> rendered = new Yaml().load(accepted.output());
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Map<String, Object>>> services =
        (Map<String, Map<String, Map<String, Object>>>) (Object) rendered.get("services");
    assertThat(services.get("ui-gateway").get("environment"))
        .containsEntry("AGENTTEAMS_GATEWAY_IDENTITY_EDGE_KEYS", secrets.get("AGENTTEAMS_EDGE_KEYS"))
        .containsEntry("AGENTTEAMS_GATEWAY_IDENTITY_DEV_IDENTITY_ENABLED", "false");
    assertThat(services.get("team-service").get("environment"))
        .containsEntry(
            "AGENTTEAMS_IDENTITY_INTERNAL_VERIFICATION_KEYS",
            secrets.get("AGENTTEAMS_INTERNAL_VERIFICATION_KEYS"))
        .containsEntry("AGENTTEAMS_TEAM_SECRETS_KEYS", secrets.get("AGENTTEAMS_TEAM_SECRETS_KEYS"))
        .containsEntry(
            "AGENTTEAMS_TEAM_SECRET_SEALING_KEYS", secrets.get("AGENTTEAMS_SECRET_SEALING_KEYS"))
        .doesNotContainKey("AGENTTEAMS_SCHEDULER_SECRET_UNSEALING_KEYS");
    // The scheduler alone opens what team-service seals; each keeps its own at-rest key.
    assertThat(services.get("scheduler-service").get("environment"))
        .containsEntry(
            "AGENTTEAMS_SCHEDULER_SECRET_UNSEALING_KEYS",
            secrets.get("AGENTTEAMS_SECRET_UNSEALING_KEYS"))
        .containsEntry(
            "AGENTTEAMS_SCHEDULER_SECRETS_KEYS", secrets.get("AGENTTEAMS_SCHEDULER_SECRETS_KEYS"))
        .doesNotContainKey("AGENTTEAMS_TEAM_SECRETS_KEYS");
    assertThat(secrets.get("AGENTTEAMS_SECRET_SEALING_KEYS"))
        .as("team-service gets the public half only")
        .doesNotContain("\"d\"");
    for (String other : List.of("ui-gateway", "mailbox-service", "task-board-service")) {
      assertThat(services.get(other).get("environment").keySet())
          .as("%s holds no webhook secret key", other)
          .noneMatch(name -> name.contains("SECRETS_KEYS") || name.contains("UNSEALING"));
    }

    Path empty = temp.resolve("empty.env");
    Files.writeString(empty, "");
    Result refused = config(empty);
    assertThat(refused.exitCode()).as("compose starts nothing without its secrets").isNotZero();
    assertThat(refused.output()).contains("AGENTTEAMS_").contains("is not set");
  }

  @Test
  @SuppressWarnings("unchecked")
  void noSecretHasADefaultAndTheDevelopmentIdentityIsOffUnlessAskedFor() throws IOException {
    String file = Files.readString(COMPOSE);
    assertThat(file).doesNotContain("dev-only").doesNotContain("change-me");
    assertThat(file)
        .as("the file shows how to reach a shared Kafka over TLS with SASL")
        .contains("SPRING_KAFKA_SECURITY_PROTOCOL: SASL_SSL")
        .contains("SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG");
    Map<String, Map<String, Object>> services = services();
    Map<String, Object> gateway =
        (Map<String, Object>) services.get("ui-gateway").get("environment");
    assertThat(gateway)
        .containsEntry(
            "AGENTTEAMS_GATEWAY_IDENTITY_DEV_IDENTITY_ENABLED",
            "${AGENTTEAMS_DEV_IDENTITY:-false}");
    for (String name : WITH_DATABASE) {
      Map<String, Object> env = (Map<String, Object>) services.get(name).get("environment");
      assertThat(env.keySet())
          .as("%s holds the gateway's public keys only", name)
          .contains("AGENTTEAMS_IDENTITY_INTERNAL_VERIFICATION_KEYS")
          .doesNotContain(
              "AGENTTEAMS_GATEWAY_IDENTITY_INTERNAL_SIGNING_KEYS",
              "AGENTTEAMS_GATEWAY_IDENTITY_EDGE_KEYS");
    }
  }

  private record Result(int exitCode, String output) {}

  private static Result config(Path envFile) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                "docker-compose",
                "-f",
                COMPOSE.toString(),
                "--env-file",
                envFile.toString(),
                "config")
            .redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("AGENTTEAMS_"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), output);
  }

  @Test
  @SuppressWarnings("unchecked")
  void runsKafkaPostgresTheFiveServicesPrometheusAndGrafanaExposingOnlyTheGateway()
      throws IOException {
    Map<String, Map<String, Object>> services = services();
    assertThat(services.keySet())
        .containsExactlyInAnyOrder(
            "kafka",
            "postgres",
            "team-migrate",
            "mailbox-migrate",
            "task-board-migrate",
            "scheduler-migrate",
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
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyServiceIsBuiltFromTheOneDockerfileAndRunsAfterItsMigrationWithoutSchemaRights()
      throws IOException {
    Map<String, Map<String, Object>> services = services();
    for (String name :
        List.of(
            "team-service",
            "mailbox-service",
            "task-board-service",
            "scheduler-service",
            "ui-gateway")) {
      Map<String, Object> build = (Map<String, Object>) services.get(name).get("build");
      assertThat(build).as(name).containsEntry("context", ".");
      assertThat((Map<String, Object>) build.get("args")).containsEntry("SERVICE", name);
    }
    for (String name : WITH_DATABASE) {
      Map<String, Object> service = services.get(name);
      Map<String, Object> env = (Map<String, Object>) service.get("environment");
      assertThat(env)
          .as(name)
          .containsKey("SPRING_R2DBC_URL")
          .containsEntry("SPRING_FLYWAY_ENABLED", "false")
          .containsEntry("SPRING_R2DBC_USERNAME", "agentteams")
          .doesNotContainKeys("SPRING_FLYWAY_USER", "SPRING_FLYWAY_PASSWORD");
      String migration = name.replace("-service", "-migrate");
      assertThat((Map<String, Object>) service.get("depends_on"))
          .containsEntry(migration, Map.of("condition", "service_completed_successfully"));
      Map<String, Object> migrate = services.get(migration);
      assertThat(String.valueOf(migrate.get("entrypoint"))).contains("SchemaMigrationJob");
      assertThat((Map<String, Object>) migrate.get("environment"))
          .containsEntry("SPRING_FLYWAY_USER", "agentteams_owner")
          .containsEntry("AGENTTEAMS_SCHEMA_RUNTIME_ROLE", "agentteams");
    }
    // Prometheus loads the alert rules the chart ships; Grafana provisions its dashboards.
    assertThat(String.valueOf(services.get("prometheus").get("volumes")))
        .contains("./helm/agent-teams/alerts/agent-teams-alerts.yml:");
    assertThat(String.valueOf(services.get("grafana").get("volumes")))
        .contains("./helm/agent-teams/dashboards:");
    assertThat(Files.readString(Path.of("..", "devstack", "compose", "prometheus.yml")))
        .contains("rule_files:");
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyServiceServesItsActuatorOnAManagementPortThatOnlyPrometheusScrapes()
      throws IOException {
    Map<String, Map<String, Object>> services = services();
    for (String name :
        List.of(
            "team-service",
            "mailbox-service",
            "task-board-service",
            "scheduler-service",
            "ui-gateway")) {
      Map<String, Object> env = (Map<String, Object>) services.get(name).get("environment");
      Map<String, Object> build = (Map<String, Object>) services.get(name).get("build");
      Map<String, Object> args = (Map<String, Object>) build.get("args");
      assertThat(env)
          .as(name)
          .containsEntry("MANAGEMENT_SERVER_PORT", "9091")
          .containsEntry("MANAGEMENT_SERVER_ADDRESS", "0.0.0.0");
      assertThat(String.valueOf(args.get("PORT"))).as(name + "'s public port").isNotEqualTo("9091");
    }
    String scrapes = Files.readString(Path.of("..", "devstack", "compose", "prometheus.yml"));
    assertThat(scrapes).contains("ui-gateway:9091", "scheduler-service:9091");
    assertThat(scrapes).doesNotContain(":8080", ":8081", ":8082", ":8083", ":8084");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> services() throws IOException {
    Map<String, Object> compose = new Yaml().load(Files.readString(COMPOSE));
    return (Map<String, Map<String, Object>>) compose.get("services");
  }
}
