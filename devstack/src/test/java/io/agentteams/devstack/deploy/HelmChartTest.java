package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.agentteams.platform.consumer.ConsumerProperties;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.Option;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.Yaml;

/**
 * The chart lints strictly and renders what operators rely on, across the values files of the
 * deployments it is made for (src/test/resources/helm) and its size presets (sizes/).
 */
class HelmChartTest {

  private static final Path CHART = Path.of("..", "helm", "agent-teams");
  private static final Path VALUES = Path.of("src", "test", "resources", "helm");
  private static final List<String> SERVICES =
      List.of(
          "ui-gateway",
          "team-service",
          "mailbox-service",
          "task-board-service",
          "scheduler-service");
  private static final List<String> WITH_DATABASE =
      List.of("team-service", "mailbox-service", "task-board-service", "scheduler-service");

  /** The annotation prefix hooks are renamed to in {@link #renderable} (see there). */
  private static final String HOOK_STAND_IN = "hook.test.agentteams.io/";

  @TempDir Path temp;

  /**
   * The chart as rendered here: Helm's library (like {@code helm template --no-hooks}) leaves hook
   * resources out of the manifest, so this copy's templates name their hook annotations
   * differently, Helm renders the migration Jobs like any resource, and {@link #render} names the
   * annotations back before the tests look at them.
   */
  @TempDir static Path renderable;

  @BeforeAll
  static void copyTheChartWithHooksRendered() throws IOException {
    copy(CHART, renderable);
    try (Stream<Path> templates = Files.list(renderable.resolve("templates"))) {
      for (Path template : (Iterable<Path>) templates::iterator) {
        Files.writeString(
            template, Files.readString(template).replace("helm.sh/hook", HOOK_STAND_IN + "hook"));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production"})
  void eachConsumingReplicaJoinsItsGroupsStaticallyUnderItsPodsName(String values) {
    Rendered chart = render(values);
    for (String service : WITH_DATABASE) {
      Map<String, Object> container =
          first(chart.podSpec("Deployment", "at-" + service).get("containers"));
      assertThat(
              list(container.get("env")).stream()
                  .filter(v -> "AGENTTEAMS_CONSUMER_INSTANCE_ID".equals(v.get("name")))
                  .map(v -> at(v, "valueFrom.fieldRef.fieldPath", String.class))
                  .toList())
          .as("%s's consumer instance id", service)
          .containsExactly("metadata.name");
    }
    // The gateway's feed reads every event in a group of its own per start: no static member.
    assertThat(env(first(chart.podSpec("Deployment", "at-ui-gateway").get("containers"))))
        .doesNotContainKey("AGENTTEAMS_CONSUMER_INSTANCE_ID");
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production", "autoscaling-off", "ingress-tls"})
  void lintsStrictlyWithEachDeploymentsValues(String values) {
    assertLintsStrictly(values(values));
  }

  @ParameterizedTest
  @ValueSource(strings = {"small", "medium", "large"})
  void lintsStrictlyAtEverySize(String size) {
    Map<String, Object> merged = values("minimal");
    merge(merged, load(CHART.resolve("sizes").resolve(size + ".yaml")));
    assertLintsStrictly(merged);
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production", "autoscaling-off", "ingress-tls"})
  void everyPodRunsLockedDownAndDrainsBeforeItStops(String values) {
    Rendered chart = render(values);
    for (String service : SERVICES) {
      Map<String, Object> pod = chart.podSpec("Deployment", "at-" + service);
      assertLockedDown(pod, service);
      assertThat(pod.get("automountServiceAccountToken")).isEqualTo(false);
      Map<String, Object> container = first(pod.get("containers"));
      int preStop =
          Integer.parseInt(
              at(container, "lifecycle.preStop.exec.command", List.class).get(1).toString());
      assertThat(preStop).as("%s leaves its endpoints before stopping", service).isPositive();
      assertThat((Integer) pod.get("terminationGracePeriodSeconds"))
          .as("%s grace period covers the preStop wait and the drain", service)
          .isGreaterThan(preStop + 20);
      assertThat(list(pod.get("topologySpreadConstraints")))
          .extracting(c -> c.get("topologyKey"))
          .containsExactly("topology.kubernetes.io/zone", "kubernetes.io/hostname");
      assertThat(
              at(
                  chart.find("Deployment", "at-" + service),
                  "spec.template.metadata.annotations",
                  Map.class))
          .containsKey("checksum/secrets");
    }
    for (String service : WITH_DATABASE) {
      assertLockedDown(chart.podSpec("Job", "at-" + service + "-migrate"), service + "-migrate");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production"})
  void theConfiguredPrometheusMayScrapeEveryServicesManagementPortAndNothingElseComesIn(
      String values) {
    Map<String, Object> given = values(values);
    Rendered chart = render(values);
    Map<String, Object> scraper = merged(given, "metrics.scraper");
    for (String service : SERVICES) {
      Map<String, Object> pod = chart.podSpec("Deployment", "at-" + service);
      Map<String, Object> container = first(pod.get("containers"));
      String management = at(container, "readinessProbe.httpGet.port", String.class);
      assertThat(list(container.get("ports")))
          .as("%s names the port serving /actuator", service)
          .anyMatch(p -> p.get("name").equals(management));
      Map<String, Object> policy = chart.find("NetworkPolicy", "at-" + service);
      List<Map<String, Object>> rules = list(at(policy, "spec.ingress", List.class));
      Map<String, Object> scrape =
          rules.stream()
              .filter(r -> first(r.get("ports")).get("port").equals(management))
              .filter(
                  r ->
                      r.get("from") != null
                          && first(r.get("from")).containsKey("namespaceSelector"))
              .findFirst()
              .orElseThrow(
                  () -> new AssertionError(service + " admits no scraper on " + management));
      assertThat(first(scrape.get("from")))
          .as("%s admits exactly the configured scraper", service)
          .isEqualTo(
              Map.of(
                  "namespaceSelector", scraper.get("namespaceSelector"),
                  "podSelector", scraper.get("podSelector")));
      Map<String, Object> http =
          rules.stream()
              .filter(r -> first(r.get("ports")).get("port").equals("http") && r != scrape)
              .findFirst()
              .orElseThrow();
      if (service.equals("ui-gateway")) {
        List<?> gatewayFrom = (List<?>) merged(given, "networkPolicy").get("gatewayFrom");
        assertThat(http.get("from"))
            .as("the gateway's public port: open, or to the configured sources")
            .isEqualTo(gatewayFrom.isEmpty() ? null : gatewayFrom);
      } else {
        assertThat(http.get("from"))
            .as("%s answers pods of this release only", service)
            .isEqualTo(
                List.of(
                    Map.of(
                        "podSelector",
                        Map.of("matchLabels", Map.of("app.kubernetes.io/instance", "at")))));
      }
    }
  }

  /**
   * Each part may connect to DNS, Kafka, Postgres (if it has a database) and this release's pods;
   * only the scheduler (webhook and A2A agents) and the gateway (the identity provider) reach
   * further, to public addresses on web ports and never to the private ranges.
   */
  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production"})
  void egressIsOpenOnlyToDnsKafkaPostgresThisReleaseAndPublicAgentEndpoints(String values) {
    Rendered chart = render(values);
    for (String service : SERVICES) {
      Map<String, Object> policy = chart.find("NetworkPolicy", "at-" + service);
      assertThat(at(policy, "spec.policyTypes", List.class)).as(service).contains("Egress");
      List<Map<String, Object>> rules = list(at(policy, "spec.egress", List.class));
      List<Object> ports =
          rules.stream()
              .flatMap(r -> list(r.get("ports")).stream().map(p -> p.get("port")))
              .toList();
      assertThat(ports).as(service).contains(53, 9092);
      if (service.equals("ui-gateway")) {
        assertThat(ports).as("the gateway has no database").doesNotContain(5432);
      } else {
        assertThat(ports).as(service).contains(5432);
      }
      assertThat(rules)
          .as("%s reaches the pods of its release", service)
          .anyMatch(
              r ->
                  r.get("ports") == null
                      && String.valueOf(r.get("to")).contains("app.kubernetes.io/instance=at"));
      List<Map<String, Object>> outside =
          rules.stream()
              .filter(r -> list(r.get("to")).stream().anyMatch(to -> to.containsKey("ipBlock")))
              .toList();
      if (service.equals("scheduler-service") || service.equals("ui-gateway")) {
        assertThat(outside).as(service).hasSize(1);
        Map<String, Object> block = at(first(outside.get(0).get("to")), "ipBlock", Map.class);
        assertThat(String.valueOf(block.get("except")))
            .as("%s never reaches the private ranges", service)
            .contains("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16");
        assertThat(list(outside.get(0).get("ports")).stream().map(p -> p.get("port")).toList())
            .containsExactlyInAnyOrder(443, 80);
      } else {
        assertThat(outside).as("%s reaches nothing outside the cluster", service).isEmpty();
      }
      // No rule opens every port to every destination.
      assertThat(rules).noneMatch(r -> r.get("ports") == null && r.get("to") == null);
    }
  }

  @Test
  void aManagementPortOfItsOwnIsExposedProbedAndScraped() {
    Rendered chart = render("production");
    for (String service : SERVICES) {
      Map<String, Object> container =
          first(chart.podSpec("Deployment", "at-" + service).get("containers"));
      assertThat(env(container))
          .containsEntry("MANAGEMENT_SERVER_PORT", "9090")
          .as(
              "%s: the probes and Prometheus reach the pod's address (the gateway's own default"
                  + " is loopback)",
              service)
          .containsEntry("MANAGEMENT_SERVER_ADDRESS", "0.0.0.0");
      assertThat(at(container, "livenessProbe.httpGet.port", String.class)).isEqualTo("management");
      assertThat(list(at(chart.find("Service", "at-" + service), "spec.ports", List.class)))
          .anyMatch(p -> p.get("name").equals("management") && p.get("port").equals(9090));
      assertThat(
              first(
                  at(chart.find("ServiceMonitor", "at-" + service), "spec.endpoints", List.class)))
          .containsEntry("port", "management")
          .containsEntry("path", "/actuator/prometheus");
    }
    Rendered minimal = render("minimal");
    for (String service : SERVICES) {
      Map<String, Object> byDefault =
          first(minimal.podSpec("Deployment", "at-" + service).get("containers"));
      assertThat(env(byDefault))
          .as("%s serves the actuator on a port of its own by default", service)
          .containsEntry("MANAGEMENT_SERVER_PORT", "9090");
      assertThat(at(byDefault, "readinessProbe.httpGet.port", String.class))
          .isEqualTo("management");
    }
    // The console's operator page reads the services' metrics there, and may reach them.
    Map<String, Object> gateway =
        first(minimal.podSpec("Deployment", "at-ui-gateway").get("containers"));
    assertThat(env(gateway).get("SPRING_APPLICATION_JSON"))
        .contains("\"team-service\":\"http://at-team-service:9090\"")
        .contains("\"scheduler-service\":\"http://at-scheduler-service:9090\"");
    Map<String, Object> sharing = values("minimal");
    merge(sharing, Map.of("services", Map.of("ui-gateway", Map.of("managementPort", 8080))));
    assertThatThrownBy(() -> render(sharing))
        .as("the gateway's actuator on its public port")
        .hasMessageContaining("never serves /actuator on its public port");
    Map<String, Object> values = values("minimal");
    merge(values, Map.of("networkPolicy", Map.of("enabled", true)));
    Map<String, Object> policy = render(values).find("NetworkPolicy", "at-team-service");
    assertThat(String.valueOf(at(policy, "spec.ingress", List.class).get(1)))
        .contains("management")
        .contains("app.kubernetes.io/name=ui-gateway");
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production"})
  void migrationsRunBeforeInstallAndUpgradeWithCredentialsTheServicesNeverGet(String values) {
    Rendered chart = render(values);
    String migrationSecret =
        values.equals("production") ? "agent-teams-db-owner" : "at-postgres-migration";
    String runtimeSecret = values.equals("production") ? "agent-teams-db-runtime" : "at-postgres";
    for (String service : WITH_DATABASE) {
      Map<String, Object> job = chart.find("Job", "at-" + service + "-migrate");
      assertThat(at(job, "metadata.annotations", Map.class))
          .containsEntry("helm.sh/hook", "pre-install,pre-upgrade");
      Map<String, Object> migrate =
          first(chart.podSpec("Job", "at-" + service + "-migrate").get("containers"));
      assertThat(String.valueOf(migrate.get("command")))
          .contains("io.agentteams.platform.schema.SchemaMigrationJob");
      assertThat(secretOf(migrate, "SPRING_FLYWAY_USER")).isEqualTo(migrationSecret);
      assertThat(secretOf(migrate, "SPRING_FLYWAY_PASSWORD")).isEqualTo(migrationSecret);
      assertThat(env(migrate))
          .containsKeys(
              "SPRING_FLYWAY_URL", "SPRING_FLYWAY_LOCATIONS", "AGENTTEAMS_SCHEMA_RUNTIME_ROLE");

      Map<String, Object> running =
          first(chart.podSpec("Deployment", "at-" + service).get("containers"));
      assertThat(env(running)).containsEntry("SPRING_FLYWAY_ENABLED", "false");
      assertThat(env(running))
          .doesNotContainKeys("SPRING_FLYWAY_USER", "SPRING_FLYWAY_PASSWORD", "SPRING_FLYWAY_URL");
      assertThat(secretOf(running, "SPRING_R2DBC_USERNAME")).isEqualTo(runtimeSecret);
      assertThat(secretOf(running, "SPRING_R2DBC_PASSWORD")).isEqualTo(runtimeSecret);
      assertThat(String.valueOf(running)).doesNotContain(migrationSecret);
    }
    if (values.equals("minimal")) {
      // Created by the chart, the migration credentials exist before the Jobs that need them.
      assertThat(
              at(chart.find("Secret", "at-postgres-migration"), "metadata.annotations", Map.class))
          .containsEntry("helm.sh/hook", "pre-install,pre-upgrade")
          .containsEntry("helm.sh/hook-weight", "-10");
    }
  }

  @Test
  void secretsAndTlsComeFromSecretsNeverFromPlainValues() {
    Rendered chart = render("production");
    for (String service : SERVICES) {
      Map<String, Object> container =
          first(chart.podSpec("Deployment", "at-" + service).get("containers"));
      for (Map<String, Object> variable : list(container.get("env"))) {
        String name = String.valueOf(variable.get("name"));
        if (name.matches(".*(PASSWORD|SECRET|_KEY|USERNAME|CERTIFICATE.*)")) {
          assertThat(variable).as(name).containsKey("valueFrom").doesNotContainKey("value");
        }
      }
      Map<String, String> env = env(container);
      assertThat(env)
          .containsEntry("SPRING_KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
          .containsEntry("SPRING_KAFKA_PROPERTIES_SASL_MECHANISM", "SCRAM-SHA-512")
          .containsEntry("SPRING_KAFKA_PROPERTIES_SSL_TRUSTSTORE_TYPE", "PEM")
          .containsEntry(
              "MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT",
              "http://otel-collector.observability:4318/v1/traces")
          .containsEntry("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs")
          .containsEntry("TZ", "UTC");
      assertThat(env.get("SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG"))
          .isEqualTo(
              "org.apache.kafka.common.security.scram.ScramLoginModule required"
                  + " username=\"$(KAFKA_SASL_USERNAME)\" password=\"$(KAFKA_SASL_PASSWORD)\";");
      assertThat(secretOf(container, "SPRING_KAFKA_PROPERTIES_SSL_TRUSTSTORE_CERTIFICATES"))
          .isEqualTo("kafka-ca");
      assertThat(secretOf(container, "SPRING_KAFKA_PROPERTIES_SSL_KEYSTORE_KEY"))
          .isEqualTo("kafka-client-cert");
      if (WITH_DATABASE.contains(service)) {
        assertThat(env.get("SPRING_R2DBC_URL"))
            .endsWith("?sslMode=verify-full&sslRootCert=/etc/agent-teams/postgres-tls/ca.crt");
      }
    }
    // Existing Secrets are referenced, none is created.
    assertThat(chart.docs()).noneMatch(d -> "Secret".equals(d.get("kind")));
  }

  @Test
  void theKafkaAndPostgresTlsValuesReachTheClientsAsTheirConfiguration() {
    Map<String, Object> container =
        first(render("production").podSpec("Deployment", "at-mailbox-service").get("containers"));
    // The environment as the kubelet makes it: Secret keys filled in, $(VAR) references expanded.
    Map<String, Object> environment = new LinkedHashMap<>();
    for (Map<String, Object> variable : list(container.get("env"))) {
      String value;
      if (variable.containsKey("valueFrom")
          && at(variable, "valueFrom", Map.class).containsKey("fieldRef")) {
        // The downward API: the pod's own fields, here its name.
        assertThat(at(variable, "valueFrom.fieldRef.fieldPath", String.class))
            .isEqualTo("metadata.name");
        value = "at-mailbox-service-7c9d5-x2k4p";
      } else if (variable.containsKey("valueFrom")) {
        Map<String, Object> ref = at(variable, "valueFrom.secretKeyRef", Map.class);
        value = ref.get("name") + "/" + ref.get("key");
      } else {
        value = String.valueOf(variable.get("value"));
        for (Map.Entry<String, Object> earlier : environment.entrySet()) {
          value = value.replace("$(" + earlier.getKey() + ")", String.valueOf(earlier.getValue()));
        }
      }
      environment.put(String.valueOf(variable.get("name")), value);
    }
    Binder binder =
        new Binder(
            ConfigurationPropertySources.from(
                new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment)));
    KafkaProperties kafka =
        binder.bind("spring.kafka", Bindable.ofInstance(new KafkaProperties())).get();

    for (Map<String, Object> client :
        List.of(kafka.buildConsumerProperties(), kafka.buildProducerProperties())) {
      assertThat(client)
          .containsEntry("bootstrap.servers", List.of("kafka-0.kafka:9093", "kafka-1.kafka:9093"))
          .containsEntry("security.protocol", "SASL_SSL")
          .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
          .containsEntry(
              "sasl.jaas.config",
              "org.apache.kafka.common.security.scram.ScramLoginModule required"
                  + " username=\"kafka-credentials/username\""
                  + " password=\"kafka-credentials/password\";")
          .containsEntry("ssl.truststore.type", "PEM")
          .containsEntry("ssl.truststore.certificates", "kafka-ca/ca.crt")
          .containsEntry("ssl.keystore.type", "PEM")
          .containsEntry("ssl.keystore.certificate.chain", "kafka-client-cert/tls.crt")
          .containsEntry("ssl.keystore.key", "kafka-client-cert/tls.key");
    }
    // The service's consumers join their groups statically under the pod's name, and leave them
    // when the pod stops: a Deployment's replacement pod comes back under another name.
    ConsumerProperties consumers =
        binder.bind("agentteams.consumer", Bindable.of(ConsumerProperties.class)).get();
    assertThat(consumers.instanceId()).isEqualTo("at-mailbox-service-7c9d5-x2k4p");
    assertThat(consumers.leaveGroupOnClose()).isTrue();
    ConnectionFactoryOptions postgres =
        ConnectionFactoryOptions.parse(binder.bind("spring.r2dbc.url", String.class).get());
    assertThat(postgres.getValue(ConnectionFactoryOptions.HOST)).isEqualTo("pg.example.internal");
    assertThat(String.valueOf(postgres.getValue(Option.valueOf("sslMode"))))
        .isEqualTo("verify-full");
    assertThat(String.valueOf(postgres.getValue(Option.valueOf("sslRootCert"))))
        .isEqualTo("/etc/agent-teams/postgres-tls/ca.crt");
    assertThat(binder.bind("spring.flyway.enabled", Boolean.class).get()).isFalse();
    assertThat(binder.bind("management.server.port", Integer.class).get()).isEqualTo(9090);
  }

  @Test
  void aChangedSecretRollsThePods() {
    String before = checksum(render(values("minimal")));
    Map<String, Object> rotated = values("minimal");
    merge(rotated, Map.of("postgres", Map.of("password", "rotated-password")));
    assertThat(checksum(render(rotated))).isNotEqualTo(before);
    assertThat(checksum(render(values("minimal")))).isEqualTo(before);
  }

  @Test
  void withAutoscalingOffEachServiceHasItsFixedReplicasAndNoAutoscaler() {
    Rendered chart = render("autoscaling-off");
    for (String service : SERVICES) {
      assertThat(at(chart.find("Deployment", "at-" + service), "spec.replicas", Integer.class))
          .isEqualTo(3);
      assertThat(chart.docs()).noneMatch(d -> "HorizontalPodAutoscaler".equals(d.get("kind")));
      assertThat(chart.find("PodDisruptionBudget", "at-" + service)).isNotNull();
    }
    Rendered scaling = render("minimal");
    for (String service : SERVICES) {
      assertThat(scaling.find("HorizontalPodAutoscaler", "at-" + service)).isNotNull();
      assertThat(at(scaling.find("Deployment", "at-" + service), "spec", Map.class))
          .doesNotContainKey("replicas");
    }
  }

  @Test
  void theIngressExposesOnlyTheGatewaysPublicPathsOverTls() {
    Rendered chart = render("ingress-tls");
    Map<String, Object> ingress = chart.find("Ingress", "at-gateway");
    assertThat(first(at(ingress, "spec.tls", List.class)))
        .containsEntry("secretName", "agent-teams-tls");
    List<Map<String, Object>> paths =
        list(at(first(at(ingress, "spec.rules", List.class)), "http.paths", List.class));
    assertThat(paths)
        .extracting(p -> p.get("path") + " " + p.get("pathType"))
        .containsExactlyInAnyOrder(
            "/api/v1 Prefix",
            "/v3/api-docs Prefix",
            "/swagger-ui Prefix",
            "/console Prefix",
            "/ Exact");
    assertThat(paths)
        .extracting(p -> at(p, "backend.service.name", String.class))
        .containsOnly("at-ui-gateway");
    assertThat(paths)
        .as("the Ingress reaches the gateway's public port, never its management port")
        .extracting(p -> at(p, "backend.service.port.name", String.class))
        .containsOnly("http");
    assertThat(paths).noneMatch(p -> String.valueOf(p.get("path")).startsWith("/actuator"));
    Map<String, Object> gatewayPod =
        first(chart.podSpec("Deployment", "at-ui-gateway").get("containers"));
    assertThat(env(gatewayPod).get("MANAGEMENT_SERVER_PORT"))
        .isNotEqualTo(env(gatewayPod).get("SERVER_PORT"));
    assertThat(render("minimal").docs()).noneMatch(d -> "Ingress".equals(d.get("kind")));

    for (String exposing : List.of("/actuator", "/dev/tokens", "/")) {
      Map<String, Object> values = values("ingress-tls");
      merge(
          values,
          Map.of(
              "gateway",
              Map.of(
                  "ingress",
                  Map.of("paths", List.of(Map.of("path", exposing, "pathType", "Prefix"))))));
      assertThatThrownBy(() -> render(values)).as(exposing).hasMessageContaining("would expose");
    }
  }

  @Test
  void theGatewayBelievesForwardedHeadersOnlyFromTheConfiguredProxies() {
    Map<String, String> byDefault =
        env(first(render("ingress-tls").podSpec("Deployment", "at-ui-gateway").get("containers")));
    assertThat(byDefault)
        .as("the ingress controller's pod network, as values.yaml documents it")
        .containsEntry("AGENTTEAMS_GATEWAY_FORWARDED_TRUSTED_PROXIES", "10.0.0.0/8")
        .containsEntry("AGENTTEAMS_GATEWAY_FORWARDED_HSTS_MAX_AGE", "730d");

    Map<String, Object> values = values("ingress-tls");
    merge(
        values,
        Map.of(
            "gateway",
            Map.of(
                "forwarded",
                Map.of(
                    "trustedProxies", List.of("10.244.0.0/16", "fd00::/8"), "hstsMaxAge", "1h"))));
    Map<String, String> narrowed =
        env(first(render(values).podSpec("Deployment", "at-ui-gateway").get("containers")));
    assertThat(narrowed)
        .containsEntry("AGENTTEAMS_GATEWAY_FORWARDED_TRUSTED_PROXIES", "10.244.0.0/16,fd00::/8")
        .containsEntry("AGENTTEAMS_GATEWAY_FORWARDED_HSTS_MAX_AGE", "1h");
  }

  @Test
  void prometheusRuleAndDashboardsShipWhatComposeLoads() throws IOException {
    Rendered chart = render("production");
    Map<String, Object> rule = chart.find("PrometheusRule", "at");
    assertThat(at(rule, "metadata.labels", Map.class)).containsEntry("release", "main");
    assertThat(at(rule, "spec", Map.class)).isEqualTo(AlertRulesTest.yaml(AlertRulesTest.RULES));
    Map<String, Object> dashboards = chart.find("ConfigMap", "at-dashboards");
    try (Stream<Path> files = Files.list(CHART.resolve("dashboards"))) {
      Set<String> names = files.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
      assertThat(at(dashboards, "data", Map.class).keySet()).isEqualTo(names);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production"})
  void eachPrivateKeyReachesTheOnePartThatSignsWithIt(String values) {
    Rendered chart = render(values);
    Map<String, Set<String>> held = new LinkedHashMap<>();
    for (String service : SERVICES) {
      Map<String, Object> container =
          first(chart.podSpec("Deployment", "at-" + service).get("containers"));
      Set<String> keys =
          list(container.get("env")).stream()
              .filter(v -> v.containsKey("valueFrom"))
              .map(v -> at(v, "valueFrom", Map.class).get("secretKeyRef"))
              .filter(ref -> ref != null)
              .map(ref -> String.valueOf(map(ref).get("key")))
              .filter(key -> key.endsWith("-keys"))
              .collect(Collectors.toSet());
      held.put(service, keys);
      if (!service.equals("ui-gateway")) {
        assertThat(env(container))
            .as("%s verifies with the gateway's public keys", service)
            .containsKey("AGENTTEAMS_IDENTITY_INTERNAL_VERIFICATION_KEYS")
            .doesNotContainKeys(
                "AGENTTEAMS_GATEWAY_IDENTITY_EDGE_KEYS",
                "AGENTTEAMS_GATEWAY_IDENTITY_INTERNAL_SIGNING_KEYS");
      }
    }
    assertThat(held)
        .as("the edge and internal signing keys go to the gateway alone")
        .containsEntry("ui-gateway", Set.of("internal-signing-keys", "edge-keys"))
        .containsEntry(
            "scheduler-service",
            Set.of("dispatch-signing-keys", "secret-unsealing-keys", "scheduler-secrets-keys"))
        .containsEntry("team-service", Set.of("team-secrets-keys"))
        .containsEntry("mailbox-service", Set.of())
        .containsEntry("task-board-service", Set.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "production"})
  void webhookSecretKeysReachTeamServiceAndTheSchedulerOnlyAndTheChartRefusesToRenderWithoutThem(
      String values) {
    Rendered chart = render(values);
    Map<String, Object> team =
        first(chart.podSpec("Deployment", "at-team-service").get("containers"));
    Map<String, Object> scheduler =
        first(chart.podSpec("Deployment", "at-scheduler-service").get("containers"));
    String identity = "production".equals(values) ? "agent-teams-identity" : "at-identity";
    assertThat(secretOf(team, "AGENTTEAMS_TEAM_SECRETS_KEYS")).isEqualTo(identity);
    assertThat(env(team))
        .as("team-service seals with the scheduler's public keys only")
        .containsEntry(
            "AGENTTEAMS_TEAM_SECRET_SEALING_KEYS",
            "{\"keys\":[{\"kty\":\"EC\",\"crv\":\"P-256\",\"kid\":\"unsealing-1\","
                + "\"x\":\"test-unsealing-public\"}]}")
        .doesNotContainKeys(
            "AGENTTEAMS_SCHEDULER_SECRET_UNSEALING_KEYS", "AGENTTEAMS_SCHEDULER_SECRETS_KEYS");
    assertThat(secretOf(scheduler, "AGENTTEAMS_SCHEDULER_SECRET_UNSEALING_KEYS"))
        .isEqualTo(identity);
    assertThat(secretOf(scheduler, "AGENTTEAMS_SCHEDULER_SECRETS_KEYS")).isEqualTo(identity);
    assertThat(env(scheduler)).doesNotContainKey("AGENTTEAMS_TEAM_SECRETS_KEYS");
    for (String service : List.of("ui-gateway", "mailbox-service", "task-board-service")) {
      assertThat(env(first(chart.podSpec("Deployment", "at-" + service).get("containers"))))
          .as("%s holds no webhook secret key", service)
          .doesNotContainKeys(
              "AGENTTEAMS_TEAM_SECRETS_KEYS",
              "AGENTTEAMS_SCHEDULER_SECRETS_KEYS",
              "AGENTTEAMS_SCHEDULER_SECRET_UNSEALING_KEYS");
    }

    for (String missing :
        List.of(
            "secretUnsealingKeys",
            "teamSecretsKeys",
            "schedulerSecretsKeys",
            "secretSealingKeys")) {
      Map<String, Object> without = values("minimal");
      map(without.get("identity")).remove(missing);
      assertThatThrownBy(() -> render(without))
          .as("without identity.%s", missing)
          .hasMessageContaining("identity." + missing)
          .hasMessageContaining("required");
    }
  }

  @Test
  void refusesToRenderWithoutSecrets() {
    assertThatThrownBy(() -> new Helm(CHART).template().withName("at").call())
        .hasMessageContaining("required");
  }

  // --- rendering

  private void assertLockedDown(Map<String, Object> pod, String what) {
    Map<String, Object> security = map(pod.get("securityContext"));
    assertThat(security).as(what).containsEntry("runAsNonRoot", true);
    assertThat(map(security.get("seccompProfile")))
        .as(what)
        .containsEntry("type", "RuntimeDefault");
    for (Map<String, Object> container : list(pod.get("containers"))) {
      Map<String, Object> own = map(container.get("securityContext"));
      assertThat(own)
          .as(what)
          .containsEntry("allowPrivilegeEscalation", false)
          .containsEntry("readOnlyRootFilesystem", true)
          .containsEntry("runAsNonRoot", true);
      assertThat(map(own.get("capabilities")).get("drop")).as(what).isEqualTo(List.of("ALL"));
      assertThat(map(own.get("seccompProfile"))).as(what).containsEntry("type", "RuntimeDefault");
    }
  }

  private void assertLintsStrictly(Map<String, Object> values) {
    Path chart = copyWithValues(values);
    LintResult result = new Helm(chart).lint().strict().call();
    assertThat(result.getMessages()).as("lint messages").noneMatch(m -> m.contains("[ERROR]"));
    assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
  }

  /** A copy of the chart whose values.yaml has the given values merged in, as helm lint -f does. */
  private Path copyWithValues(Map<String, Object> values) {
    Path copy = temp.resolve("chart-" + System.nanoTime());
    try {
      copy(CHART, copy);
      Map<String, Object> merged = load(CHART.resolve("values.yaml"));
      merge(merged, values);
      Files.writeString(copy.resolve("values.yaml"), new Yaml().dump(merged));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return copy;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }

  private Rendered render(String values) {
    return render(values(values));
  }

  private Rendered render(Map<String, Object> values) {
    Path file = temp.resolve("values-" + System.nanoTime() + ".yaml");
    try {
      Files.writeString(file, new Yaml().dump(values));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String manifest =
        new Helm(renderable)
            .template()
            .withName("at")
            .withValuesFile(file)
            .call()
            .replace(HOOK_STAND_IN, "helm.sh/");
    List<Map<String, Object>> docs = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(manifest)) {
      if (doc instanceof Map<?, ?> map) {
        docs.add(map(map));
      }
    }
    return new Rendered(docs);
  }

  private static String checksum(Rendered chart) {
    return String.valueOf(
        at(
                chart.find("Deployment", "at-team-service"),
                "spec.template.metadata.annotations",
                Map.class)
            .get("checksum/secrets"));
  }

  /** The documents of one rendering. */
  record Rendered(List<Map<String, Object>> docs) {

    Map<String, Object> find(String kind, String name) {
      return docs.stream()
          .filter(
              d -> kind.equals(d.get("kind")) && at(d, "metadata.name", String.class).equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    Map<String, Object> podSpec(String kind, String name) {
      return at(find(kind, name), "spec.template.spec", Map.class);
    }
  }

  private static Map<String, Object> values(String name) {
    return load(VALUES.resolve(name + ".yaml"));
  }

  private static Map<String, Object> load(Path file) {
    try {
      Map<String, Object> loaded = new Yaml().load(Files.readString(file));
      return loaded == null ? new LinkedHashMap<>() : loaded;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deep-merges {@code overlay} into {@code base}, as Helm merges values files. */
  @SuppressWarnings("unchecked")
  private static void merge(Map<String, Object> base, Map<String, Object> overlay) {
    overlay.forEach(
        (key, value) -> {
          if (value instanceof Map<?, ?> nested && base.get(key) instanceof Map<?, ?> existing) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) existing);
            merge(copy, (Map<String, Object>) nested);
            base.put(key, copy);
          } else {
            base.put(key, value);
          }
        });
  }

  /** A values subtree with the chart's defaults under the given values. */
  private static Map<String, Object> merged(Map<String, Object> given, String path) {
    Map<String, Object> all = load(CHART.resolve("values.yaml"));
    merge(all, given);
    return at(all, path, Map.class);
  }

  private static Map<String, String> env(Map<String, Object> container) {
    Map<String, String> env = new LinkedHashMap<>();
    for (Map<String, Object> variable : list(container.get("env"))) {
      if (variable.containsKey("value")) {
        env.put(String.valueOf(variable.get("name")), String.valueOf(variable.get("value")));
      } else {
        env.put(String.valueOf(variable.get("name")), "<from " + variable.get("valueFrom") + ">");
      }
    }
    return env;
  }

  private static String secretOf(Map<String, Object> container, String variable) {
    return list(container.get("env")).stream()
        .filter(v -> variable.equals(v.get("name")))
        .map(v -> at(v, "valueFrom.secretKeyRef.name", String.class))
        .findFirst()
        .orElseThrow(() -> new AssertionError(variable + " is not taken from a Secret"));
  }

  @SuppressWarnings("unchecked")
  private static <T> T at(Map<String, Object> doc, String path, Class<T> type) {
    Object current = doc;
    for (String key : path.split("\\.")) {
      if (!(current instanceof Map<?, ?> map)) {
        throw new AssertionError("no " + path + " in " + doc);
      }
      current = map.get(key);
    }
    if (current == null) {
      throw new AssertionError("no " + path + " in " + doc);
    }
    return type.cast(current);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value == null ? Map.of() : (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object value) {
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }

  private static Map<String, Object> first(Object list) {
    List<Map<String, Object>> items = list(list);
    assertThat(items).isNotEmpty();
    return items.get(0);
  }
}
