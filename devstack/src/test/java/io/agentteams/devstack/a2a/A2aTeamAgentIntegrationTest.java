package io.agentteams.devstack.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A team as an A2A 1.0 agent, driven by the official A2A JS SDK client ({@code
 * src/test/a2a/client.mjs}, run once with node): holding a team-scoped A2A token the owner minted,
 * it reads the team's card, streams a task that stops for input and answers it on the same task,
 * drops a stream and follows the task again with SubscribeToTask, and cancels it. The team's lead
 * is itself an A2A agent served by the SDK, so a cancel here reaches that agent's task too.
 */
@RealInfrastructure
class A2aTeamAgentIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static Api api;
  private static A2aPeer peer;
  private static String owner;
  private static String stranger;
  private static String teamId;
  private static String a2aToken;
  private static final Map<String, JsonNode> steps = new HashMap<>();
  private static final List<Push> pushes = new CopyOnWriteArrayList<>();
  private static HttpServer receiver;

  /** A push-notification as the client's receiver got it. */
  private record Push(Map<String, String> headers, String body) {}

  private static String clientOutput = "";

  @BeforeAll
  static void delegateThroughTheSdkClient() throws Exception {
    api = new Api(SharedStack.get().url(Service.GATEWAY));
    owner = api.ownerToken("ada-a2a-server");
    stranger = api.ownerToken("eve-a2a-server");
    peer = new A2aPeer();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/pushes",
        exchange -> {
          Map<String, String> headers = new HashMap<>();
          exchange
              .getRequestHeaders()
              .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
          pushes.add(
              new Push(
                  headers,
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
    api.post(
            "/api/v1/agents",
            owner,
            Map.of(
                "id",
                "remote",
                "name",
                "Remote",
                "runtime",
                Map.of("kind", "a2a", "endpoint", peer.streamingUrl())))
        .ok();
    teamId =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Painters",
                    "goal",
                    "Paint what they are asked to",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "remote", "lead", true),
                        Map.of("name", "helper", "agent_id", "remote"))))
            .ok()
            .get("id")
            .asString();
    await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/teams/" + teamId, owner).ok().get("status").asString(),
            "ready"::equals);

    String card =
        SharedStack.get().url(Service.GATEWAY)
            + "/api/v1/teams/"
            + teamId
            + "/a2a/.well-known/agent-card.json";
    // The client holds a token the owner minted for this team alone.
    a2aToken =
        api.post("/api/v1/teams/" + teamId + "/a2a/tokens", owner, Map.of())
            .ok()
            .get("access_token")
            .asString();
    Path log = Files.createTempFile("a2a-client", ".log");
    ProcessBuilder launch =
        new ProcessBuilder("node", "client.mjs", card)
            .directory(Path.of("src/test/a2a").toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // Tokens go by the environment, never on the command line.
    launch.environment().put("AGENT_TEAMS_TOKEN", a2aToken);
    launch.environment().put("AGENT_TEAMS_STRANGER_TOKEN", stranger);
    launch
        .environment()
        .put(
            "AGENT_TEAMS_PUSH_URL",
            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/pushes");
    Process node = launch.start();
    try {
      assertThat(node.waitFor(3 * PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .as("the A2A client finished")
          .isTrue();
    } finally {
      node.destroyForcibly();
    }
    clientOutput = Files.readString(log, StandardCharsets.UTF_8);
    JsonMapper json = JsonMapper.builder().build();
    for (String line : clientOutput.split("\n")) {
      if (line.startsWith("{")) {
        JsonNode step = json.readTree(line);
        steps.put(step.get("step").asString(), step);
      }
    }
  }

  @AfterAll
  static void stopTheAgent() {
    if (peer != null) {
      peer.close();
    }
    if (receiver != null) {
      receiver.stop(0);
    }
  }

  @Test
  void theSdkReadsTheTeamsCardWithTheOwnersToken() {
    JsonNode card = step("card");
    assertThat(card.get("name").asString()).isEqualTo("Painters");
    assertThat(card.get("description").asString()).isEqualTo("Paint what they are asked to");
    assertThat(card.get("streaming").asBoolean()).isTrue();
    assertThat(card.get("skills").get(0).asString()).isEqualTo("lead");
  }

  @Test
  void aStreamedTaskStopsForInputAndTheAnswerOnTheSameTaskCompletesIt() throws Exception {
    JsonNode ask = step("ask");
    List<String> states = strings(ask.get("states"));
    assertThat(states.get(0)).isEqualTo("TASK_STATE_SUBMITTED");
    assertThat(states).contains("TASK_STATE_WORKING");
    assertThat(states.get(states.size() - 1)).isEqualTo("TASK_STATE_INPUT_REQUIRED");
    assertThat(ask.get("question").asString()).isEqualTo("Which colour should it be?");

    JsonNode answer = step("answer");
    assertThat(answer.get("taskId").asString()).isEqualTo(ask.get("taskId").asString());
    assertThat(answer.get("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(answer.get("answer").asString()).isEqualTo("painted it blue");
    // The task id is the job id of the owner request to the lead.
    JsonNode job = api.get("/api/v1/jobs/" + ask.get("taskId").asString(), owner).ok();
    assertThat(job.get("member").asString()).isEqualTo("lead");
    assertThat(job.get("state").asString()).isEqualTo("completed");
  }

  @Test
  void aDroppedStreamIsFollowedAgainWithSubscribeToTaskAndTheTaskIsCancelled() throws Exception {
    JsonNode resubscribe = step("resubscribe");
    assertThat(strings(resubscribe.get("before")))
        .startsWith("TASK_STATE_SUBMITTED")
        .endsWith("TASK_STATE_WORKING");
    // The resumed stream starts with the task as it is, and ends with the cancel: nothing missed.
    assertThat(strings(resubscribe.get("after")))
        .containsExactly("TASK_STATE_WORKING", "TASK_STATE_CANCELED");
    assertThat(resubscribe.get("cancelled").asString()).isEqualTo("TASK_STATE_CANCELED");
    assertThat(resubscribe.get("final").asString()).isEqualTo("TASK_STATE_CANCELED");
    String job = resubscribe.get("taskId").asString();
    assertThat(api.get("/api/v1/jobs/" + job, owner).ok().get("state").asString())
        .isEqualTo("cancelled");
    // The lead's own A2A task was cancelled at its agent, through the A2A runtime.
    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(peer.log().get("cancelled")).isNotEmpty());
  }

  @Test
  void pushConfigsAreKeptPerTaskAndItsChangesPushedSignedWithTheClientsToken() throws Exception {
    JsonNode push = step("push");
    assertThat(push.get("asked").asString()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
    assertThat(push.get("created").asString()).isEqualTo("cfg");
    assertThat(strings(push.get("listed"))).containsExactly("cfg", "on-send");
    assertThat(push.get("got").get("token").asString()).isEqualTo("tok-cfg");
    assertThat(push.get("got").get("scheme").asString()).isEqualTo("Bearer");
    assertThat(strings(push.get("afterDelete"))).containsExactly("cfg");
    assertThat(push.get("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(push.get("refusedPrivate").asString()).contains("private (10.0.0.0/8)");

    String task = push.get("taskId").asString();
    JsonMapper json = JsonMapper.builder().build();
    Push completed =
        await()
            .atMost(PATIENCE)
            .until(
                () ->
                    pushes.stream()
                        .filter(p -> "tok-cfg".equals(p.headers().get("x-a2a-notification-token")))
                        .filter(p -> p.body().contains("TASK_STATE_COMPLETED"))
                        .findFirst(),
                java.util.Optional::isPresent)
            .orElseThrow();
    JsonNode pushed = json.readTree(completed.body()).get("task");
    assertThat(pushed.get("id").asString()).isEqualTo(task);
    assertThat(pushed.get("artifacts").get(0).get("parts").get(0).get("text").asString())
        .isEqualTo("painted it green");
    assertThat(completed.headers().get("authorization")).isEqualTo("Bearer push-secret");
    // Signed the Standard Webhooks way, keyed with the client's token.
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec("tok-cfg".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update(
        (completed.headers().get("webhook-id")
                + "."
                + completed.headers().get("webhook-timestamp")
                + ".")
            .getBytes(StandardCharsets.UTF_8));
    String expected =
        "v1,"
            + Base64.getEncoder()
                .encodeToString(mac.doFinal(completed.body().getBytes(StandardCharsets.UTF_8)));
    assertThat(completed.headers().get("webhook-signature")).isEqualTo(expected);
    // The deleted config gets nothing after the task was answered.
    assertThat(pushes)
        .filteredOn(p -> "tok-on-send".equals(p.headers().get("x-a2a-notification-token")))
        .noneMatch(p -> p.body().contains("TASK_STATE_COMPLETED"));
  }

  @Test
  void aMessageWhosePushUrlTheGuardRefusesStartsNoTask() {
    String activity = "/api/v1/teams/" + teamId + "/activity?limit=200";
    List<String> before = requestIds(api.get(activity, owner).ok());
    JsonNode answer =
        rpc(
            owner,
            """
            {"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{
              "message":{"messageId":"refused-push-probe","role":"ROLE_USER",
                         "parts":[{"text":"Paint the refused-push probe"}]},
              "configuration":{"taskPushNotificationConfig":{"url":"http://10.1.2.3/hook"}}}}
            """);
    assertThat(answer.path("error").path("message").asString())
        .as(answer.toString())
        .contains("may not be called");
    JsonNode after = api.get(activity, owner).ok();
    assertThat(requestIds(after)).as("the refused message left no task behind").isEqualTo(before);
    assertThat(after.toString()).doesNotContain("refused-push probe");
  }

  private static List<String> requestIds(JsonNode activity) {
    List<String> ids = new java.util.ArrayList<>();
    activity.path("items").forEach(item -> ids.add(item.path("request").path("id").asString()));
    return ids;
  }

  @Test
  void anotherOwnerLearnsNothingOfTheTeamNotEvenFromABadBody() {
    assertThat(step("refused").get("card").asString()).contains("404");

    Api.Response rpc =
        api.call(HttpMethod.POST, "/api/v1/teams/" + teamId + "/a2a", stranger, "not json");
    assertThat(rpc.status()).isEqualTo(404);
    assertThat(rpc.body().get("code").asString()).isEqualTo("team-not-found");
    Api.Response unknown =
        api.call(
            HttpMethod.POST,
            "/api/v1/teams/00000000-0000-7000-8000-000000000000/a2a",
            owner,
            "not json");
    assertThat(unknown.status()).isEqualTo(404);
  }

  @Test
  void theTeamsA2aTokenOpensItsAgentAndNothingElseWhileTheOwnersTokenWorksToo() {
    String task = step("answer").get("taskId").asString();
    String getTask =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\""
            + task
            + "\"}}";
    // The owner's own token speaks for the team as well.
    JsonNode asOwner = rpc(owner, getTask);
    assertThat(asOwner.get("result").get("status").get("state").asString())
        .isEqualTo("TASK_STATE_COMPLETED");
    assertThat(
            api.get("/api/v1/teams/" + teamId + "/a2a/.well-known/agent-card.json", owner)
                .ok()
                .get("name")
                .asString())
        .isEqualTo("Painters");

    // The A2A token reaches nothing but this team's agent.
    String otherTeam =
        api.post(
                "/api/v1/teams",
                owner,
                Map.of(
                    "name",
                    "Others",
                    "goal",
                    "Stay out of reach",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "remote", "lead", true),
                        Map.of("name", "helper", "agent_id", "remote"))))
            .ok()
            .get("id")
            .asString();
    for (String path :
        List.of(
            "/api/v1/teams/" + teamId,
            "/api/v1/jobs/" + task,
            "/api/v1/teams/" + otherTeam + "/a2a/.well-known/agent-card.json",
            "/api/v1/agents")) {
      assertThat(api.get(path, a2aToken).status()).as(path).isEqualTo(404);
    }
    assertThat(
            api.call(HttpMethod.POST, "/api/v1/teams/" + otherTeam + "/a2a", a2aToken, getTask)
                .status())
        .isEqualTo(404);
    assertThat(api.post("/api/v1/teams/" + teamId + "/a2a/tokens", a2aToken, Map.of()).status())
        .isEqualTo(404);
    // Another owner cannot mint one for this team.
    assertThat(api.post("/api/v1/teams/" + teamId + "/a2a/tokens", stranger, Map.of()).status())
        .isEqualTo(404);
  }

  private static JsonNode rpc(String token, String body) {
    try {
      java.net.http.HttpResponse<String> response =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(
                              SharedStack.get().url(Service.GATEWAY)
                                  + "/api/v1/teams/"
                                  + teamId
                                  + "/a2a"))
                      .header("Authorization", "Bearer " + token)
                      .header("A2A-Version", "1.0")
                      .header("Content-Type", "application/json")
                      .timeout(PATIENCE)
                      .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      return JsonMapper.builder().build().readTree(response.body());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode step(String name) {
    JsonNode step = steps.get(name);
    assertThat(step).as("step %s in the client's output:%n%s", name, clientOutput).isNotNull();
    return step;
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new java.util.ArrayList<>();
    array.forEach(value -> values.add(value.asString()));
    return values;
  }
}
