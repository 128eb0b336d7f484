package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * The published worker protocol, from outside: a worker in Node without a library, written from the
 * guide's "Write a worker in any language" ({@code docs/worker-protocol.md}) alone ({@code
 * src/test/worker-node/worker.mjs}), completes a job, asks a question and resumes with the owner's
 * answer; every event it received, every report it sent and every answer it got, and every event of
 * the member's stream meanwhile, is valid against the AsyncAPI document and the JSON Schemas the
 * gateway serves.
 */
@RealInfrastructure
class NodeWorkerIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String BASE = "https://agent-teams.invalid";

  @Test
  void aNodeWorkerWrittenFromTheReadmeCompletesAsksAndResumesAndAllTrafficMatchesTheSchemas()
      throws Exception {
    String gateway = SharedStack.get().url(Service.GATEWAY);
    Api api = new Api(gateway);
    String owner = api.ownerToken("nora-" + UUID.randomUUID().toString().substring(0, 8));
    String agent = "node-" + UUID.randomUUID().toString().substring(0, 8);
    api.post("/api/v1/agents", owner, Map.of("id", agent, "name", "Node worker")).ok();
    api.post("/api/v1/agents", owner, Map.of("id", agent + "-other", "name", "Another")).ok();
    String team =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Polyglot in Node",
                    "goal",
                    "Show the protocol from its README",
                    "members",
                    List.of(
                        Map.of("name", "helper", "agent_id", agent, "lead", true),
                        Map.of("name", "other", "agent_id", agent + "-other"))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + team, owner).ok().get("status").asString(),
            "ready"::equals);
    String workerToken =
        api.post("/api/v1/agents/" + agent + "/tokens", owner, null)
            .ok()
            .get("access_token")
            .asString();

    List<ServerSentEvent<String>> memberEvents = new CopyOnWriteArrayList<>();
    Disposable memberStream =
        api.stream("/api/v1/teams/" + team + "/members/helper/events", owner)
            .filter(event -> event.data() != null)
            .subscribe(memberEvents::add);
    Path record = Files.createTempFile("node-worker", ".jsonl");
    Path log = Files.createTempFile("node-worker", ".log");
    Process node =
        new ProcessBuilder(
                "node",
                worker().toString(),
                gateway,
                agent,
                workerToken,
                "node-test",
                record.toString(),
                "2")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      String echo = request(api, owner, team, "Say hello", "node-1");
      JsonNode echoed = finished(api, owner, echo);
      assertThat(echoed.get("state").asString()).isEqualTo("completed");
      assertThat(echoed.get("result").get("answer").asString()).isEqualTo("echo: Say hello");

      String ask = request(api, owner, team, "ask: paint the shed", "node-2");
      JsonNode waiting =
          await()
              .atMost(PATIENCE)
              .until(
                  () -> api.get("/api/v1/jobs/" + ask, owner).ok(),
                  job -> job.get("state").asString().equals("waiting_input"));
      assertThat(waiting.get("question").get("text").asString())
          .isEqualTo("Which colour should it be?");
      api.post("/api/v1/jobs/" + ask + "/answer", owner, Map.of("text", "blue")).ok();
      JsonNode painted = finished(api, owner, ask);
      assertThat(painted.get("state").asString()).isEqualTo("completed");
      assertThat(painted.get("result").get("answer").asString()).isEqualTo("painted it blue");
      assertThat(painted.get("usage").get("model").asString()).isEqualTo("node-worker");

      assertThat(node.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .as("it stops after two completed jobs")
          .isTrue();
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(node.exitValue()).as(output).isZero();
    } finally {
      node.destroyForcibly();
      memberStream.dispose();
    }

    Protocol protocol = Protocol.from(api);
    List<JsonNode> traffic = new ArrayList<>();
    for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
      traffic.add(api.json(line));
    }
    List<JsonNode> offers =
        traffic.stream().filter(t -> "job".equals(t.path("event").asString(""))).toList();
    assertThat(offers)
        .as("the first job, the question, the resumed job")
        .hasSizeGreaterThanOrEqualTo(3);
    assertThat(offers)
        .anySatisfy(offer -> assertThat(offer.get("data").path("resume").isObject()).isTrue());
    int reports = 0;
    for (JsonNode entry : traffic) {
      if (entry.get("kind").asString().equals("event")) {
        protocol.checkEvent(
            "jobStream",
            entry.get("event").asString(),
            entry.get("id").asString(),
            entry.get("data"));
      } else {
        protocol.check("report", entry.get("body"));
        if (entry.get("status").asInt() == 200) {
          protocol.check("report-answer", entry.get("answer"));
        }
        reports++;
      }
    }
    assertThat(reports).isGreaterThanOrEqualTo(6);
    assertThat(memberEvents).as("the member's stream saw its jobs and the team").isNotEmpty();
    for (ServerSentEvent<String> event : memberEvents) {
      protocol.checkEvent("memberEvents", event.event(), event.id(), api.json(event.data()));
    }
  }

  private static String request(Api api, String owner, String team, String text, String key) {
    return api.post(
            "/api/v1/teams/" + team + "/requests",
            owner,
            Map.of("recipients", List.of("helper"), "text", text, "idempotency_key", key))
        .ok()
        .get("jobs")
        .get(0)
        .get("id")
        .asString();
  }

  private static JsonNode finished(Api api, String owner, String job) {
    return await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, owner).ok(),
            j ->
                List.of("completed", "failed", "cancelled", "interrupted")
                    .contains(j.get("state").asString()));
  }

  /** The AsyncAPI document and the schemas, as the gateway serves them. */
  private record Protocol(JsonNode asyncApi, Map<String, Schema> schemas) {

    static Protocol from(Api api) {
      JsonNode asyncApi = api.get("/v3/asyncapi", null).ok();
      assertThat(asyncApi.get("asyncapi").asString()).isEqualTo("3.0.0");
      Map<String, String> served = new HashMap<>();
      for (String name :
          List.of(
              "offer", "interrupt", "report", "usage", "report-answer", "team-event", "reset")) {
        served.put(
            BASE + "/v3/schemas/" + name + ".json",
            api.get("/v3/schemas/" + name + ".json", null).raw());
      }
      SchemaRegistry registry =
          SchemaRegistry.withDefaultDialect(
              SpecificationVersion.DRAFT_2020_12, builder -> builder.schemas(served));
      Map<String, Schema> schemas = new HashMap<>();
      served
          .keySet()
          .forEach(
              iri ->
                  schemas.put(
                      iri.substring(iri.lastIndexOf('/') + 1, iri.length() - ".json".length()),
                      registry.getSchema(SchemaLocation.of(iri))));
      return new Protocol(asyncApi, schemas);
    }

    void check(String schema, JsonNode value) {
      assertThat(schemas.get(schema).validate(value)).as("%s against %s", value, schema).isEmpty();
    }

    /** The event is one of the channel's messages: its name, its id and its payload. */
    void checkEvent(String channel, String event, String id, JsonNode data) {
      JsonNode message = null;
      for (JsonNode ref : asyncApi.get("channels").get(channel).get("messages")) {
        JsonNode candidate = resolve(ref.get("$ref").asString());
        String name = candidate.get("x-sse-event").asString();
        if (name.equals(event) || (name.startsWith("<") && !event.equals("reset"))) {
          message = candidate;
          break;
        }
      }
      assertThat(message).as("%s event %s is a message of the channel", channel, event).isNotNull();
      assertThat(id == null ? "" : id)
          .as("the id of %s", event)
          .matches(Pattern.compile(message.get("x-sse-id").get("pattern").asString()));
      String payload = message.get("payload").get("$ref").asString();
      check(
          payload.substring(payload.lastIndexOf('/') + 1, payload.length() - ".json".length()),
          data);
    }

    private JsonNode resolve(String ref) {
      JsonNode node = asyncApi;
      for (String part : ref.substring(2).split("/")) {
        node = node.get(part);
      }
      return node;
    }
  }

  private static Path worker() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !new File(dir.toFile(), "src/test/worker-node/worker.mjs").exists()) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("src/test/worker-node/worker.mjs not found");
    }
    return dir.resolve("src/test/worker-node/worker.mjs");
  }
}
