package io.agentteams.devstack.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.MeterLabels;
import io.agentteams.platform.test.RealInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * After a short workload through the gateway, every metric that a dashboard panel or an alert rule
 * reads is exported by the running services (so no panel is empty by construction), on the service
 * the query names where it names one; and what the services logged meanwhile, at debug level, holds
 * neither the message bodies nor the tokens that went by.
 *
 * <p>A new metric with its panel and alert is covered once the workload below exercises it (most
 * meters exist from start-up; those created on first use need their operation here).
 */
@RealInfrastructure
@ExtendWith(OutputCaptureExtension.class)
class MetricsBehindDashboardsIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** Series Prometheus makes itself while scraping, which no service exports. */
  private static final Set<String> SCRAPE_SERIES = Set.of("up");

  private static ServiceStack stack;
  private static Api api;

  @BeforeAll
  static void connect() {
    stack = SharedStack.get();
    api = new Api(stack.url(Service.GATEWAY));
  }

  @Test
  void
      everyMetricOfEveryPanelAndAlertIsExportedAfterAWorkloadNoneLabelledWithAnIdAndNoBodyOrTokenIsLogged(
          CapturedOutput output) throws IOException {
    Map<String, Map<String, String>> wanted = new LinkedHashMap<>();
    Dashboards.expressions().forEach((where, expr) -> wanted.put(where, PromQl.metrics(expr)));
    Alerts.expressions().forEach((where, expr) -> wanted.put(where, PromQl.metrics(expr)));
    assertThat(wanted).isNotEmpty();

    String body = "Zygomorphic note " + UUID.randomUUID();
    LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
    logging.setLogLevel("io.agentteams", LogLevel.DEBUG);
    Workload workload;
    try {
      workload = Workload.run(api, body);
      try {
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () ->
                    assertThat(missing(wanted, scrapeAll()))
                        .as("metrics a panel or alert reads that no service exports")
                        .isEmpty());
      } finally {
        workload.close();
      }
    } finally {
      logging.setLogLevel("io.agentteams", null);
    }

    // The workload touched every service's paths: none of their meters may carry an owner, team,
    // agent, job... id as a label (the cardinality of a deployment's metrics stays bounded).
    for (Service service : Service.values()) {
      MeterLabels.assertBounded(stack.context(service).getBean(MeterRegistry.class));
    }

    String logged = output.getAll();
    assertThat(logged).as("message bodies are never logged").doesNotContain(body);
    for (String token : workload.tokens()) {
      assertThat(logged).as("tokens are never logged").doesNotContain(token);
    }
  }

  /** Where each wanted metric is missing: "panel or alert: metric (service)". */
  private static List<String> missing(
      Map<String, Map<String, String>> wanted, Map<Service, Set<String>> exported) {
    Set<String> anywhere = new HashSet<>(SCRAPE_SERIES);
    exported.values().forEach(anywhere::addAll);
    return wanted.entrySet().stream()
        .flatMap(
            use ->
                use.getValue().entrySet().stream()
                    .filter(
                        metric -> {
                          if (metric.getValue() == null) {
                            return !anywhere.contains(metric.getKey());
                          }
                          Service service = service(metric.getValue());
                          return service == null
                              || !exported.get(service).contains(metric.getKey());
                        })
                    .map(
                        metric ->
                            use.getKey()
                                + ": "
                                + metric.getKey()
                                + (metric.getValue() == null
                                    ? ""
                                    : " (" + metric.getValue() + ")")))
        .sorted()
        .toList();
  }

  private static Service service(String id) {
    for (Service service : Service.values()) {
      if (service.id().equals(id)) {
        return service;
      }
    }
    return null;
  }

  /** The metric names each service exports now. */
  static Map<Service, Set<String>> scrapeAll() {
    Map<Service, Set<String>> names = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      String exposition =
          WebClient.builder()
              .baseUrl(stack.managementUrl(service))
              // Kafka client metrics alone make a scrape of several hundred kilobytes.
              .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(32 * 1024 * 1024))
              .build()
              .get()
              .uri("/actuator/prometheus")
              .retrieve()
              .bodyToMono(String.class)
              .block(Duration.ofSeconds(30));
      names.put(
          service,
          exposition
              .lines()
              .filter(line -> !line.isBlank() && !line.startsWith("#"))
              .map(line -> line.split("[{ ]", 2)[0])
              .collect(Collectors.toSet()));
    }
    return names;
  }

  /**
   * A little of everything the dashboards show: a team with a stream open, a message, a task
   * claimed and claimed again with a stale revision, a request waiting for a worker.
   */
  record Workload(Api api, List<String> tokens, Disposable stream, List<String> jobs, String owner)
      implements AutoCloseable {

    static Workload run(Api api, String body) {
      String owner = api.ownerToken("metrics-owner");
      for (String agent : List.of("metrics-a", "metrics-b")) {
        api.post("/api/v1/agents", owner, Map.of("id", agent, "name", agent));
      }
      String team =
          api.post(
                  "/api/v1/teams",
                  owner,
                  Map.of(
                      "name",
                      "Metrics team",
                      "goal",
                      "Light every panel",
                      "members",
                      List.of(
                          Map.of("name", "lead", "agent_id", "metrics-a", "lead", true),
                          Map.of("name", "peer", "agent_id", "metrics-b"))))
              .ok()
              .get("id")
              .asString();
      await()
          .atMost(PATIENCE)
          .until(
              () -> api.get("/api/v1/teams/" + team, owner).ok().get("status").asString(),
              "ready"::equals);
      Disposable stream = api.stream("/api/v1/teams/" + team + "/events", owner).subscribe();
      String lead = api.memberToken(owner, team, "lead");
      String peer = api.memberToken(owner, team, "peer");
      api.post("/api/v1/teams/" + team + "/messages", lead, Map.of("to", "peer", "text", body))
          .ok();
      await()
          .atMost(PATIENCE)
          .until(
              () -> api.get("/api/v1/teams/" + team + "/inbox", peer).ok().toString(),
              inbox -> inbox.contains(body));
      JsonNode task =
          api.post("/api/v1/teams/" + team + "/tasks", lead, Map.of("title", "Light a panel"))
              .ok()
              .get("task");
      String claim = "/api/v1/teams/" + team + "/tasks/" + task.get("id").asLong() + "/claim";
      Map<String, Object> revision = Map.of("expected_revision", task.get("revision").asLong());
      api.post(claim, lead, revision).ok();
      assertThat(api.post(claim, peer, revision).status()).as("a stale claim").isBetween(400, 499);
      // Two requests to one member: the first is admitted and waits for a worker, the second
      // queues behind it (one run at a time per conversation).
      List<String> jobs = new ArrayList<>();
      for (String text : List.of("Wait for a worker", "Wait behind the first")) {
        jobs.add(
            api.post(
                    "/api/v1/teams/" + team + "/requests",
                    owner,
                    Map.of("recipients", List.of("peer"), "text", text))
                .ok()
                .get("jobs")
                .get(0)
                .get("id")
                .asString());
      }
      return new Workload(api, List.of(owner, lead, peer), stream, jobs, owner);
    }

    /** Closes the stream and cancels the requests, so their slot serves the other tests. */
    @Override
    public void close() {
      stream.dispose();
      for (String job : jobs) {
        api.post("/api/v1/jobs/" + job + "/cancel", owner, Map.of()).ok();
      }
    }
  }
}
