package io.agentteams.devstack.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.PullWorker;
import io.agentteams.devstack.support.SharedStack;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every public operation of the gateway's API description, called with generated inputs of every
 * awkward shape — lengths at and around each bound, hard and invalid Unicode, deep and huge JSON,
 * huge and non-integral numbers, wrong types, missing, unknown and repeated fields, path ids of
 * every shape, and every kind of caller — is answered with a 2xx or a 4xx Problem Details, never a
 * 5xx; and a refused write leaves what it touches exactly as it was (read back).
 *
 * <p>The seed is fixed; the test command runs a bounded number of tries, {@code -Dfuzz.tries=N}
 * runs more.
 */
class PublicApiFuzzTest {

  private static final JsonMapper json = JsonMapper.builder().build();
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]+)}");

  /** Who calls. */
  enum Caller {
    OWNER,
    MEMBER,
    OTHER_MEMBER,
    WORKER,
    NOBODY,
    FORGED
  }

  /** One generated request. */
  record Call(
      Operation operation, Caller caller, String path, @Nullable String body, String contentType) {

    @Override
    public String toString() {
      String shown = body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "…" : body;
      return operation.method()
          + " "
          + (path.length() > 300 ? path.substring(0, 300) + "…" : path)
          + " as "
          + caller
          + " ("
          + contentType
          + ") "
          + shown;
    }
  }

  private static String gateway;
  private static HttpClient http;
  private static HttpClient readHttp;
  private static List<Operation> operations;
  private static Bodies bodies;
  private static Map<Caller, String> tokens;
  private static Map<String, String> ids;
  private static String spareTeam;

  @BeforeContainer
  static void aTeamWithSomethingOfEverything() {
    gateway = SharedStack.get().url(Service.GATEWAY);
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    readHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    Api api = new Api(gateway);
    String owner = api.ownerToken("fuzz-owner");
    for (String agent : List.of("fuzz-lead", "fuzz-peer")) {
      api.post(
              "/api/v1/agents",
              owner,
              Map.of("id", agent, "name", agent, "runtime", Map.of("kind", "pull")))
          .ok();
    }
    String team = readyTeam(api, owner, "Fuzzed");
    spareTeam = readyTeam(api, owner, "Spare");
    String lead = api.memberToken(owner, team, "lead");
    String peer = api.memberToken(owner, team, "peer");
    String worker = api.workerToken(owner, "fuzz-lead");
    long task =
        api.post("/api/v1/teams/" + team + "/tasks", lead, Map.of("title", "A task"))
            .ok()
            .get("task")
            .get("id")
            .asLong();
    long entry =
        api.post(
                "/api/v1/teams/" + team + "/state",
                lead,
                Map.of("request_id", "r1", "kind", "plan", "title", "Plan", "content", "Draft"))
            .ok()
            .get("entry")
            .get("id")
            .asLong();
    String plan =
        api.post(
                "/api/v1/teams/" + team + "/plans",
                lead,
                Map.of(
                    "tasks",
                    List.of(Map.of("id", "first", "title", "First")),
                    "require_approval",
                    true))
            .ok()
            .get("plan")
            .get("id")
            .asString();
    String job;
    try (PullWorker finishing = new PullWorker(api, worker, "fuzz-lead", (a, offer) -> "done")) {
      job =
          api.post(
                  "/api/v1/teams/" + team + "/requests",
                  owner,
                  Map.of("recipients", List.of("lead"), "text", "Work", "idempotency_key", "k1"))
              .ok()
              .get("jobs")
              .get(0)
              .get("id")
              .asString();
      await()
          .atMost(Duration.ofMinutes(2))
          .until(
              () -> api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString(),
              "completed"::equals);
    }
    tokens = new LinkedHashMap<>();
    tokens.put(Caller.OWNER, owner);
    tokens.put(Caller.MEMBER, lead);
    tokens.put(Caller.OTHER_MEMBER, peer);
    tokens.put(Caller.WORKER, worker);
    tokens.put(Caller.FORGED, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.");
    ids = new LinkedHashMap<>();
    ids.put("teamId", team);
    ids.put("team_id", team);
    ids.put("taskId", Long.toString(task));
    ids.put("task_id", Long.toString(task));
    ids.put("entryId", Long.toString(entry));
    ids.put("entry_id", Long.toString(entry));
    ids.put("jobId", job);
    ids.put("job_id", job);
    ids.put("agentId", "fuzz-lead");
    ids.put("agent_id", "fuzz-lead");
    ids.put("member", "peer");
    ids.put("to", "peer");
    ids.put("planId", plan);
    ids.put("name", "send_message");
    ids.put("lease_token", "not-a-lease");
    // The gateway merges every service's description and leaves out one that does not answer in
    // time (as on a busy machine); the suite needs all of them.
    JsonNode apiDocs =
        await()
            .atMost(Duration.ofMinutes(5))
            .until(
                () -> api.get("/v3/api-docs", null).ok(), PublicApiFuzzTest::describesEveryService);
    operations = Operation.all(apiDocs);
    bodies = new Bodies(apiDocs, ids);
  }

  /** Whether the merged description has operations of the gateway and of every service. */
  private static boolean describesEveryService(JsonNode apiDocs) {
    List<String> paths = Operation.all(apiDocs).stream().map(Operation::path).toList();
    return List.of("/tools", "/state", "/messages", "/tasks", "/jobs").stream()
        .allMatch(part -> paths.stream().anyMatch(path -> path.contains(part)));
  }

  private static String readyTeam(Api api, String owner, String name) {
    String team =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    name,
                    "goal",
                    "Be fuzzed",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "fuzz-lead", "lead", true),
                        Map.of("name", "peer", "agent_id", "fuzz-peer"))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () -> api.get("/api/v1/teams/" + team, owner).ok().get("status").asString(),
            "ready"::equals);
    return team;
  }

  @Property(seed = "20261201", shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void everyOperationAnswersAProblemForBadInputNeverA5xxAndARefusedWriteChangesNothing(
      @ForAll("calls") Call call) {
    Map<String, String> before = call.operation().writes() ? readBack(call) : Map.of();

    Answer answer = send(call);
    // The record of what was tried, in the test's output.
    System.out.println("fuzz: " + answer.status() + " " + call);

    assertThat(answer.status()).as("answered %s", call).isBetween(200, 499);
    if (answer.status() >= 400 && !answer.designedConflict()) {
      assertThat(answer.contentType())
          .as("%s answered %d %s", call, answer.status(), answer.body())
          .startsWith("application/problem+json");
      JsonNode problem = json.readTree(answer.body());
      assertThat(problem.path("status").asInt()).as("%s", answer.body()).isEqualTo(answer.status());
      assertThat(problem.path("type").isString()).as("%s", answer.body()).isTrue();
    }
    if (call.operation().writes() && answer.status() >= 400) {
      assertThat(readBack(call)).as("a refused %s changed nothing", call).isEqualTo(before);
    }
  }

  @Provide
  Arbitrary<Call> calls() {
    return Arbitraries.of(operations)
        .flatMap(
            operation ->
                Combinators.combine(
                        Arbitraries.frequency(
                            Tuple.of(3, Caller.OWNER),
                            Tuple.of(3, Caller.MEMBER),
                            Tuple.of(1, Caller.OTHER_MEMBER),
                            Tuple.of(1, Caller.WORKER),
                            Tuple.of(1, Caller.NOBODY),
                            Tuple.of(1, Caller.FORGED)),
                        path(operation),
                        body(operation),
                        Arbitraries.frequency(
                            Tuple.of(12, "application/json"),
                            Tuple.of(1, "text/plain"),
                            Tuple.of(1, "application/json; charset=ISO-8859-1"),
                            Tuple.of(1, "application/xml")))
                    .as(
                        (caller, path, body, type) ->
                            new Call(operation, caller, path, body, type)));
  }

  private Arbitrary<String> path(Operation operation) {
    List<Arbitrary<String>> values = new ArrayList<>();
    for (String parameter : operation.pathParameters()) {
      values.add(pathValue(operation, parameter));
    }
    Arbitrary<List<String>> pathValues =
        values.isEmpty()
            ? Arbitraries.just(List.of())
            : Combinators.combine(values).as(List::copyOf);
    Arbitrary<String> query = query(operation);
    return Combinators.combine(pathValues, query)
        .as(
            (segments, queryString) -> {
              Matcher placeholders = PLACEHOLDER.matcher(operation.path());
              StringBuilder path = new StringBuilder();
              int i = 0;
              while (placeholders.find()) {
                placeholders.appendReplacement(path, Matcher.quoteReplacement(segments.get(i++)));
              }
              placeholders.appendTail(path);
              return path + queryString;
            });
  }

  private Arbitrary<String> pathValue(Operation operation, String parameter) {
    String valid = ids.getOrDefault(parameter, "x");
    // The fuzz never deletes or disconnects the fixture's own team; the spare one may go.
    if (parameter.equals("teamId")
        && (operation.method().equals("DELETE") && operation.path().endsWith("{teamId}")
            || operation.path().endsWith("/disconnect"))) {
      valid = spareTeam;
    }
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(valid)), Tuple.of(4, Awkward.idSegment()));
  }

  private Arbitrary<String> query(Operation operation) {
    if (operation.queryParameters().isEmpty()) {
      return Arbitraries.just("");
    }
    List<Arbitrary<String>> pairs = new ArrayList<>();
    for (Operation.Parameter parameter : operation.queryParameters()) {
      Arbitrary<String> value =
          Arbitraries.frequencyOf(
              Tuple.of(3, Arbitraries.just(ids.getOrDefault(parameter.name(), "1"))),
              Tuple.of(3, Awkward.number()),
              Tuple.of(2, Awkward.text().map(PublicApiFuzzTest::encode)));
      if (parameter.name().equals("timeout_ms")) {
        // A valid wait holds the request open; keep valid ones short.
        value = Arbitraries.of("0", "1", "50", "-1", "1.5", "abc", "99999999999999999999");
      }
      pairs.add(
          Arbitraries.frequencyOf(
              Tuple.of(2, Arbitraries.just("")),
              Tuple.of(3, value.map(v -> parameter.name() + "=" + v))));
    }
    return Combinators.combine(pairs)
        .as(
            parts -> {
              String joined = String.join("&", parts.stream().filter(p -> !p.isEmpty()).toList());
              return joined.isEmpty() ? "" : "?" + joined;
            });
  }

  private Arbitrary<@Nullable String> body(Operation operation) {
    if (operation.body() == null) {
      return Arbitraries.frequencyOf(
          Tuple.of(4, Arbitraries.just((String) null)), Tuple.of(1, bodies.body(null)));
    }
    return bodies.body(operation.body()).map(b -> (String) b);
  }

  private static String encode(String text) {
    return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** An answer: status, content type and (the start of) the body. */
  record Answer(int status, String contentType, String body) {

    /** The one error answer designed as a result: a stale public-state update (409, conflict). */
    boolean designedConflict() {
      if (status != 409 || !contentType.startsWith("application/json")) {
        return false;
      }
      try {
        return json.readTree(body).path("conflict").asBoolean(false);
      } catch (RuntimeException unreadable) {
        return false;
      }
    }
  }

  private static Answer send(Call call) {
    HttpRequest.Builder request;
    try {
      request =
          HttpRequest.newBuilder(URI.create(gateway + call.path())).timeout(Duration.ofSeconds(60));
    } catch (IllegalArgumentException notAUri) {
      // A path no client can send; nothing to ask the server.
      return new Answer(400, "application/problem+json", "{\"status\":400,\"type\":\"client\"}");
    }
    String token = tokens.get(call.caller());
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (call.body() != null) {
      request
          .header("Content-Type", call.contentType())
          .method(call.operation().method(), HttpRequest.BodyPublishers.ofString(call.body()));
    } else {
      request.method(call.operation().method(), HttpRequest.BodyPublishers.noBody());
    }
    try {
      HttpResponse<InputStream> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      String type = response.headers().firstValue("Content-Type").orElse("");
      try (InputStream in = response.body()) {
        // A stream that opened stays open: its status and type are the answer.
        byte[] bytes = type.startsWith("text/event-stream") ? new byte[0] : in.readAllBytes();
        return new Answer(response.statusCode(), type, new String(bytes, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new AssertionError(call + " got no answer: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * What a write to this operation could change, read back through the API as the owner, on
   * connections of its own (a read never rides on a connection a fuzzed request used).
   */
  private static Map<String, String> readBack(Call call) {
    String team = ids.get("teamId");
    String path = call.operation().path();
    List<String> reads = new ArrayList<>();
    if (path.contains("/tasks") || path.contains("/plans") || path.contains("/mcp")) {
      reads.add("/api/v1/teams/" + team + "/tasks?include_deleted=true");
      reads.add("/api/v1/teams/" + team + "/tasks/settings");
    }
    if (path.contains("/state") || path.contains("/mcp")) {
      reads.add("/api/v1/teams/" + team + "/state?include_archived=true");
    }
    if (path.contains("/messages") || path.contains("/mcp")) {
      reads.add("/api/v1/teams/" + team + "/history?limit=20");
    }
    if (path.contains("/requests") || path.contains("/jobs")) {
      reads.add("/api/v1/jobs/" + ids.get("jobId"));
      reads.add("/api/v1/teams/" + team + "/activity");
    }
    if (path.startsWith("/api/v1/agents")) {
      reads.add("/api/v1/agents?limit=50");
    }
    if (path.equals("/api/v1/teams") || path.startsWith("/api/v1/teams/{teamId}")) {
      reads.add("/api/v1/teams/" + team);
      reads.add("/api/v1/teams/" + spareTeam);
    }
    Map<String, String> state = new LinkedHashMap<>();
    for (String read : reads) {
      state.put(read, fetch(read));
    }
    return state;
  }

  private static String fetch(String path) {
    try {
      HttpResponse<String> response =
          readHttp.send(
              HttpRequest.newBuilder(URI.create(gateway + path))
                  .header(
                      "Authorization", "Bearer " + (tokens == null ? "" : tokens.get(Caller.OWNER)))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() + " " + response.body();
    } catch (IOException e) {
      throw new AssertionError("could not read " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
