package io.agentteams.devstack.bench;

import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.StateEntry;
import io.agentteams.contracts.team.TeamStatePublished;
import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.console.Browser;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.PullWorker;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The team console under a full team: a team page with 200 activity entries and 100 tasks, loaded
 * in headless Chromium until it is interactive (its scripts ran and its handlers are attached, then
 * its live stream is open), beside the same measure for the console's lightest page; and events
 * published to Kafka until they show on the open page, beside the same events' raw Kafka produce →
 * consume latency in the same run.
 *
 * <p>Run: {@code ./mvnw -B -Dbench=console -pl devstack -am verify}
 */
public final class ConsoleBenchmark {

  private static final int ACTIVITY = Integer.getInteger("bench.activity", 200);
  private static final int TASKS = Integer.getInteger("bench.tasks", 100);
  private static final int LOADS = Integer.getInteger("bench.loads", 20);
  private static final int EVENTS = Integer.getInteger("bench.events", 200);
  private static final int WARMUP = 5;

  private ConsoleBenchmark() {}

  public static void main(String[] args) throws Exception {
    TestInfrastructure shared = TestInfrastructure.shared();
    ServiceStack stack = start(shared);
    int status = 0;
    try {
      run(stack, shared.kafkaBootstrapServers());
    } catch (Exception | AssertionError e) {
      e.printStackTrace();
      status = 1;
    } finally {
      stack.close();
    }
    System.exit(status);
  }

  private static void run(ServiceStack stack, String kafka) throws Exception {
    String gateway = stack.url(Service.GATEWAY);
    Api api = new Api(gateway);
    String owner = api.ownerToken("bench");
    List<String> members = List.of("lead", "researcher", "writer");
    List<Map<String, Object>> roster = new ArrayList<>();
    for (String member : members) {
      api.post("/api/v1/agents", owner, Map.of("id", member, "name", member, "description", member))
          .ok();
      roster.add(Map.of("name", member, "agent_id", member, "lead", "lead".equals(member)));
    }
    String teamId =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of("name", "Bench team", "goal", "A full page", "members", roster))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(Duration.ofMinutes(1))
        .until(
            () ->
                "ready"
                    .equals(
                        api.get("/api/v1/teams/" + teamId, owner).ok().path("status").asString()));
    List<PullWorker> workers = new ArrayList<>();
    for (String member : members) {
      workers.add(
          new PullWorker(
              api,
              api.workerToken(owner, member),
              member,
              (a, offer) -> "Done: " + offer.path("input").asString()));
    }
    for (int i = 0; i < ACTIVITY; i++) {
      String to = members.get(i % members.size());
      api.post(
              "/api/v1/teams/" + teamId + "/requests",
              owner,
              Map.of(
                  "recipients",
                  List.of(to),
                  "text",
                  "Request " + i + ": summarise part " + i + " of the report"))
          .ok();
    }
    String lead = api.memberToken(owner, teamId, "lead");
    long previous = -1;
    for (int i = 0; i < TASKS; i++) {
      Map<String, Object> task =
          previous > 0 && i % 3 == 0
              ? Map.of(
                  "title",
                  "Task " + i,
                  "description",
                  "Part " + i,
                  "dependencies",
                  List.of(previous),
                  "write_scopes",
                  List.of("/report/part-" + (i % 7)))
              : Map.of(
                  "title",
                  "Task " + i,
                  "description",
                  "Part " + i,
                  "write_scopes",
                  List.of("/report/part-" + (i % 7)));
      previous =
          api.post("/api/v1/teams/" + teamId + "/tasks", lead, task)
              .ok()
              .path("task")
              .path("id")
              .asLong();
    }
    await()
        .atMost(Duration.ofMinutes(5))
        .until(
            () ->
                finished(api.get("/api/v1/teams/" + teamId + "/activity?limit=200", owner).ok())
                    >= ACTIVITY);
    workers.forEach(PullWorker::close);
    System.out.printf("%nConsole benchmark: %d activity entries, %d tasks%n", ACTIVITY, TASKS);

    try (Browser browser = Browser.open()) {
      browser.signIn(gateway, "bench");
      double[] floor = loads(browser, gateway + "/console/agents");
      double[][] team = loadsWithLive(browser, gateway + "/console/teams/" + teamId);
      System.out.printf(
          "%n  page load to interactive (DOMContentLoaded done: scripts run, handlers attached), %d loads each after %d warm-ups%n"
              + "    floor, the agents page:            p50 %6.0f ms  p95 %6.0f ms  max %6.0f ms%n"
              + "    team page (%d entries, %d tasks):  p50 %6.0f ms  p95 %6.0f ms  max %6.0f ms%n"
              + "    team page, live stream open:       p50 %6.0f ms  p95 %6.0f ms  max %6.0f ms%n"
              + "    team page, HTML received (server): p50 %6.0f ms  p95 %6.0f ms  max %6.0f ms%n"
              + "    team page HTML size: %d bytes%n",
          LOADS,
          WARMUP,
          pct(floor, 50),
          pct(floor, 95),
          pct(floor, 100),
          ACTIVITY,
          TASKS,
          pct(team[0], 50),
          pct(team[0], 95),
          pct(team[0], 100),
          pct(team[1], 50),
          pct(team[1], 95),
          pct(team[1], 100),
          pct(team[2], 50),
          pct(team[2], 95),
          pct(team[2], 100),
          ((Number) browser.script("return document.documentElement.outerHTML.length"))
              .longValue());
      events(browser, kafka, teamId);
    }
  }

  private static long finished(JsonNode activity) {
    long done = 0;
    for (JsonNode item : activity.path("items")) {
      if ("completed".equals(item.path("request").path("state").asString())) {
        done++;
      }
    }
    return done;
  }

  private static double[] loads(Browser browser, String url) {
    for (int i = 0; i < WARMUP; i++) {
      browser.get(url);
    }
    double[] times = new double[LOADS];
    for (int i = 0; i < LOADS; i++) {
      browser.get(url);
      times[i] = interactive(browser);
    }
    return times;
  }

  private static double[][] loadsWithLive(Browser browser, String url) {
    for (int i = 0; i < WARMUP; i++) {
      browser.get(url);
      browser.waitUntil(
          d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    }
    double[] interactive = new double[LOADS];
    double[] live = new double[LOADS];
    double[] served = new double[LOADS];
    for (int i = 0; i < LOADS; i++) {
      browser.get(url);
      interactive[i] = interactive(browser);
      served[i] =
          ((Number)
                  browser.script(
                      "return performance.getEntriesByType('navigation')[0].responseEnd;"))
              .doubleValue();
      Object opened =
          ((JavascriptExecutor) browser.driver())
              .executeAsyncScript(
                  "const done = arguments[arguments.length - 1];"
                      + " const check = () => document.getElementById('live-status').dataset.state === 'live'"
                      + "   ? done(performance.now()) : setTimeout(check, 2);"
                      + " check();");
      live[i] = ((Number) opened).doubleValue();
    }
    return new double[][] {interactive, live, served};
  }

  /** Milliseconds from the navigation's start until DOMContentLoaded's handlers finished. */
  private static double interactive(Browser browser) {
    Object value =
        browser.script(
            "return performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd;");
    return ((Number) value).doubleValue();
  }

  private static void events(Browser browser, String kafka, String teamId) throws Exception {
    String url = browser.driver().getCurrentUrl();
    browser.get(url);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    // Notes when each state entry appears (this observer is the benchmark's, not the page's).
    browser.script(
        "window.__seen = {};"
            + " new MutationObserver(list => { const now = Date.now();"
            + "   for (const m of list) for (const n of m.addedNodes)"
            + "     if (n.id && n.id.startsWith('state-') && !window.__seen[n.id]) window.__seen[n.id] = now; })"
            + "   .observe(document.getElementById('state-active'), {childList: true});");
    Map<Long, Long> received = new ConcurrentHashMap<>();
    AtomicBoolean reading = new AtomicBoolean(true);
    AtomicBoolean ready = new AtomicBoolean();
    Thread raw = new Thread(() -> readRaw(kafka, received, reading, ready), "raw-consumer");
    raw.start();
    await().atMost(Duration.ofMinutes(1)).untilTrue(ready);
    EventCodec codec = new EventCodec("console-benchmark", Clock.systemUTC());
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    List<Double> page = new ArrayList<>();
    List<Double> rawLatency = new ArrayList<>();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      for (int i = 0; i < WARMUP * 4 + EVENTS; i++) {
        long entryId = 100_000 + i;
        String now = Instant.now().toString();
        StateEntry entry =
            new StateEntry(
                entryId,
                "finding",
                "Bench finding " + i,
                "Published to Kafka",
                "active",
                "lead",
                now,
                "lead",
                now,
                UUID.randomUUID().toString(),
                null,
                1);
        String json =
            codec.write(
                codec.envelope(
                    new TeamStatePublished(teamId, entry, 1000 + i, 1000 + i),
                    teamId,
                    "bench",
                    i,
                    null));
        long sent = System.currentTimeMillis();
        producer.send(new ProducerRecord<>(Topics.TEAM_EVENTS, teamId, json)).get();
        String id = "state-" + entryId;
        Number seen =
            await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(5))
                .until(
                    () -> (Number) browser.script("return window.__seen[arguments[0]];", id),
                    v -> v != null);
        if (i >= WARMUP * 4) {
          page.add((double) (seen.longValue() - sent));
          Long got =
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> received.get(entryId), v -> v != null);
          rawLatency.add((double) (got - sent));
        }
      }
    } finally {
      reading.set(false);
      raw.join();
    }
    double[] pageTimes = page.stream().mapToDouble(Double::doubleValue).toArray();
    double[] rawTimes = rawLatency.stream().mapToDouble(Double::doubleValue).toArray();
    System.out.printf(
        "%n  event published to Kafka -> shown on the open team page, %d events one at a time%n"
            + "    raw Kafka produce -> consume:  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms%n"
            + "    Kafka -> gateway -> SSE -> page: p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms%n%n",
        EVENTS,
        pct(rawTimes, 50),
        pct(rawTimes, 99),
        pct(rawTimes, 100),
        pct(pageTimes, 50),
        pct(pageTimes, 99),
        pct(pageTimes, 100));
  }

  /** A plain consumer of the team topic: when each benchmark entry's event arrived. */
  private static void readRaw(
      String kafka, Map<Long, Long> received, AtomicBoolean reading, AtomicBoolean ready) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "console-benchmark-" + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    JsonMapper mapper = JsonMapper.builder().build();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(Topics.TEAM_EVENTS));
      while (reading.get()) {
        ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(20));
        if (!ready.get() && !consumer.assignment().isEmpty()) {
          consumer.seekToEnd(consumer.assignment());
          consumer.assignment().forEach(consumer::position);
          ready.set(true);
          continue;
        }
        for (ConsumerRecord<String, String> record : records) {
          long now = System.currentTimeMillis();
          JsonNode entry = mapper.readTree(record.value()).path("data").path("entry");
          if (entry.isObject()) {
            received.put(entry.path("id").asLong(), now);
          }
        }
      }
    }
  }

  private static double pct(double[] values, int percentile) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static ServiceStack start(TestInfrastructure shared) {
    Map<Service, DatabaseAccess> databases = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      if (service.database() != null) {
        Database db = shared.freshDatabase("bench_" + service.database());
        databases.put(
            service, new DatabaseAccess(db.r2dbcUrl(), db.jdbcUrl(), db.username(), db.password()));
      }
    }
    return ServiceStack.start(
        new ServiceStack.Settings(
            shared.kafkaBootstrapServers(),
            databases,
            Map.of(),
            Map.of(
                "agentteams.gateway.identity.dev-identity-enabled", true,
                "agentteams.kafka.partitions", 4,
                "agentteams.gateway.limits.requests-per-second", 10_000,
                "agentteams.gateway.limits.burst", 10_000,
                // A team of 200 requests: past the default of 100 a team accepts.
                "agentteams.scheduler.jobs.team-max-requests", ACTIVITY + 10)));
  }
}
