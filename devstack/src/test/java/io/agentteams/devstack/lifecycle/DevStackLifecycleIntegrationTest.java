package io.agentteams.devstack.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.a2a.A2aPeer;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.DevStackProcess;
import io.agentteams.devstack.webhook.WebhookAgent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The run command's stack as its users meet it, in a JVM of its own with the run command's
 * settings: a second start on its data folder refuses and leaves it serving, a webhook agent and an
 * A2A agent on 127.0.0.1 each complete a job, its terminal shows no warning, error or logback
 * status line after the banner, and a SIGTERM to the process that launched it (Maven, for the run
 * command) stops it in order — services, then Kafka, then Postgres — without a warning or an error
 * on the way, and leaves no process and no listening port behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DevStackLifecycleIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(90);

  /** A line of the terminal's log pattern: its time, then its level. */
  private static final Pattern ENTRY = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d[.,]\\d{3} ");

  /** An entry of a warning or an error; logback's own status lines read "... |-WARN in ...". */
  private static final Pattern COMPLAINT =
      Pattern.compile("^\\d\\d:\\d\\d:\\d\\d[.,]\\d{3} (\\|-)?(WARN|ERROR)\\b");

  @TempDir static Path dir;

  private static Map<String, String> settings;
  private static DevStackProcess first;

  @BeforeAll
  static void startTheStack() {
    settings = DevStackProcess.freshSettings(dir.resolve("devstack"));
    // As the run command starts it: the child of another process, told to stop with it. Held
    // before it is up, so that a start that times out is stopped too (stopTheStack).
    first = DevStackProcess.launchUnderParent("lifecycle-first", settings);
    first.awaitUp(Duration.ofMinutes(6));
  }

  @AfterAll
  static void stopTheStack() {
    if (first != null) {
      first.close();
    }
  }

  @Test
  @Order(1)
  void aSecondStartOnTheSameFolderRefusesClearlyAndTheFirstStackKeepsServing() {
    Api api = new Api(first.gatewayUrl());
    String before = api.ownerToken("alice");

    int exit;
    String refusal;
    try (DevStackProcess second = DevStackProcess.launch("lifecycle-second", settings)) {
      exit = second.awaitExit(Duration.ofMinutes(2));
      refusal = second.output();
    }

    assertThat(exit).as(refusal).isEqualTo(2);
    assertThat(refusal)
        .contains("Agent Teams: not started.")
        .contains("is in use by process " + first.pid());
    assertThat(first.isAlive()).isTrue();
    // Every part of the first stack still works, its database included.
    String token = api.ownerToken("alice");
    assertThat(token).isNotBlank().isNotEqualTo(before);
    assertThat(
            api.post(
                    "/api/v1/agents",
                    token,
                    Map.of("id", "still-serving", "name", "Written after the refused start"))
                .status())
        .isEqualTo(201);
    assertThat(api.get("/api/v1/agents/still-serving", token).ok().get("name").asString())
        .isEqualTo("Written after the refused start");
  }

  @Test
  @Order(1)
  void theTerminalShowsTheStacksProgressAndTheBannerWhileEverythingElseGoesToTheLogFile()
      throws Exception {
    String output = first.output();
    String beforeBanner = output.substring(0, output.indexOf("Agent Teams is up"));
    Path logFile = dir.resolve("devstack/logs/stack.log").toAbsolutePath();

    // Without the split, Kafka's and Spring's INFO lines ran to thousands before the banner.
    assertThat(beforeBanner.lines().count()).as(beforeBanner).isLessThan(80);
    // Nothing but warnings and errors before the banner: no INFO line, Spring Boot's start-up
    // lines included, and no line printed on its own.
    assertThat(notWarningsOrErrors(beforeBanner)).as(beforeBanner).isEmpty();
    // Kafka's own lines, not a logback status line that names a Kafka logger (QuietStatusListener
    // keeps those off; a reset racing a broker thread is logback's, and no log line of Kafka's).
    String stackLines =
        beforeBanner
            .lines()
            .filter(line -> !line.contains(" |-"))
            .collect(java.util.stream.Collectors.joining("\n"));
    assertThat(stackLines).doesNotContain("org.apache.kafka").doesNotContain("Netty started");
    assertThat(output).contains("Logs:     " + logFile);
    String logged = Files.readString(logFile);
    assertThat(logged).contains("Netty started").contains("INFO");
  }

  /**
   * The lines that are neither a warning or an error nor part of one (the lines of its stack
   * trace), blank lines aside.
   */
  private static List<String> notWarningsOrErrors(String terminal) {
    List<String> others = new ArrayList<>();
    boolean inComplaint = false;
    for (String line : terminal.lines().toList()) {
      if (line.isBlank()) {
        continue;
      }
      if (ENTRY.matcher(line).lookingAt()) {
        inComplaint = COMPLAINT.matcher(line).lookingAt();
      }
      if (!inComplaint) {
        others.add(line);
      }
    }
    return others;
  }

  @Test
  @Order(1)
  void aWebhookAgentAndAnA2aAgentOnLoopbackEachCompleteAJobAndTheBannerSaysSo() throws Exception {
    Api api = new Api(first.gatewayUrl());
    String token = api.ownerToken("lina");
    try (WebhookAgent hook =
            new WebhookAgent(
                (push, earlier) ->
                    WebhookAgent.Reply.json(
                        200,
                        "{\"type\":\"completed\",\"answer\":\"hooked: " + push.input() + "\"}"));
        A2aPeer a2a = new A2aPeer()) {
      var webhook =
          api.post(
              "/api/v1/agents",
              token,
              Map.of(
                  "id",
                  "local-webhook",
                  "name",
                  "A webhook agent on this machine",
                  "runtime",
                  Map.of("kind", "webhook", "endpoint", hook.url())));
      assertThat(webhook.status()).as(webhook.raw()).isEqualTo(201);
      hook.verifyWith(List.of(webhook.body().get("webhook_secret").asString()));
      var agent =
          api.post(
              "/api/v1/agents",
              token,
              Map.of(
                  "id",
                  "local-a2a",
                  "name",
                  "An A2A agent on this machine",
                  "runtime",
                  Map.of("kind", "a2a", "endpoint", a2a.pollingUrl())));
      assertThat(agent.status()).as(agent.raw()).isEqualTo(201);
      String team =
          api.post(
                  "/api/v1/teams",
                  token,
                  Map.of(
                      "name",
                      "Local agents",
                      "goal",
                      "Answer from this machine",
                      "members",
                      List.of(
                          Map.of("name", "hook", "agent_id", "local-webhook", "lead", true),
                          Map.of("name", "peer", "agent_id", "local-a2a"))))
              .ok()
              .get("id")
              .asString();
      await()
          .atMost(PATIENCE)
          .until(
              () -> api.get("/api/v1/teams/" + team, token).ok().get("status").asString(),
              "ready"::equals);

      JsonNode hooked = finished(api, token, request(api, token, team, "hook", "plan the week"));
      JsonNode answered = finished(api, token, request(api, token, team, "peer", "sum it up"));

      assertThat(hooked.get("state").asString()).as(hooked.toString()).isEqualTo("completed");
      assertThat(hooked.get("result").get("answer").asString()).isEqualTo("hooked: plan the week");
      // Signed with the secret the stack gave at registration.
      assertThat(hook.pushesOf(hooked.get("id").asString()))
          .isNotEmpty()
          .allSatisfy(push -> assertThat(push.refusal()).isEmpty());
      assertThat(answered.get("state").asString()).as(answered.toString()).isEqualTo("completed");
      assertThat(answered.get("result").get("answer").asString()).isEqualTo("echo: sum it up");
    }
    // Loopback only: another private address stays refused.
    var privateAddress =
        api.post(
            "/api/v1/agents",
            token,
            Map.of(
                "id",
                "lan-webhook",
                "name",
                "Elsewhere on the network",
                "runtime",
                Map.of("kind", "webhook", "endpoint", "http://10.1.2.3/hook")));
    assertThat(privateAddress.status()).isEqualTo(400);
    assertThat(first.output())
        .contains("webhook and A2A endpoints on 127.0.0.1 are allowed")
        .contains("-Dagentteams.devstack.loopback-agents=false");
  }

  private static String request(Api api, String token, String team, String member, String text) {
    return api.post(
            "/api/v1/teams/" + team + "/requests",
            token,
            Map.of("recipients", List.of(member), "text", text, "idempotency_key", member))
        .ok()
        .get("jobs")
        .get(0)
        .get("id")
        .asString();
  }

  private static JsonNode finished(Api api, String token, String job) {
    return await()
        .atMost(PATIENCE)
        .until(
            () -> api.get("/api/v1/jobs/" + job, token).ok(),
            j ->
                List.of("completed", "failed", "cancelled", "interrupted")
                    .contains(j.get("state").asString()));
  }

  /**
   * After the tests that use the stack (its API, agents on loopback, a refused second start) and a
   * read of the whole API's description, which gathers every service's: nothing on the terminal
   * since the banner is a warning, an error or one of logback's own status lines.
   */
  @Test
  @Order(2)
  void afterTheBannerTheTerminalShowsNoWarningErrorOrLogbackStatusLine() {
    Api api = new Api(first.gatewayUrl());
    JsonNode description = api.get("/v3/api-docs", null).ok();
    assertThat(description.has("x-unavailable")).as(description.toString()).isFalse();
    assertThat(description.get("paths").size()).isGreaterThan(20);

    String output = first.output();
    String afterBanner = output.substring(output.indexOf("Agent Teams is up"));
    List<String> complaints =
        afterBanner
            .lines()
            .filter(line -> line.matches(".*\\b(WARN|ERROR)\\b.*") || line.contains(" |-"))
            .toList();
    assertThat(complaints).as(afterBanner).isEmpty();
  }

  @Test
  @Order(3)
  void sigtermToTheCommandStopsEveryPartWithoutAWarningOrAnError() throws Exception {
    Path postmasterPid = dir.resolve("devstack/postgres/postmaster.pid");
    long postmaster = Long.parseLong(Files.readAllLines(postmasterPid).get(0).trim());
    List<ProcessHandle> postgres = new ArrayList<>();
    ProcessHandle.of(postmaster)
        .ifPresent(
            server -> {
              postgres.add(server);
              server.descendants().forEach(postgres::add);
            });
    assertThat(postgres).as("the postmaster and its backends").hasSizeGreaterThan(1);

    long signalled = System.nanoTime();
    // To the launching process alone, as a SIGTERM to Maven: the stack sees its parent go.
    first.terminate();
    first.awaitStackGone(Duration.ofMinutes(2));
    await()
        .atMost(Duration.ofMinutes(1))
        .until(() -> postgres.stream().noneMatch(ProcessHandle::isAlive));
    // The figure for the README comes from a measured run, never from an assertion here.
    System.out.printf(
        "the stack and its Postgres were gone %d ms after the SIGTERM%n",
        Duration.ofNanos(System.nanoTime() - signalled).toMillis());

    String output = first.output();
    String shutdown = output.substring(output.indexOf("Agent Teams: stopping..."));
    List<String> complaints =
        Arrays.stream(shutdown.split("\n"))
            .filter(line -> line.matches(".*\\b(WARN|ERROR)\\b.*"))
            .toList();
    assertThat(complaints).as(shutdown).isEmpty();
    // The gateway first, then the other four (at the same time), then Kafka, then Postgres.
    for (String service :
        List.of("scheduler-service", "task-board-service", "mailbox-service", "team-service")) {
      assertThat(shutdown)
          .containsSubsequence(
              "Stopped ui-gateway",
              "Stopped " + service,
              "Agent Teams: stopped Kafka",
              "Agent Teams: stopped.");
    }
    String log = Files.readString(dir.resolve("devstack/logs/stack.log"));
    assertThat(log.substring(log.indexOf("the launching process")))
        .as("every consumer left its group after committing, none was cut off")
        .contains("Consumer stopped")
        .doesNotContain("still running after timeout");
    // Nothing listens any more on any of the stack's ports.
    for (Map.Entry<String, String> setting : settings.entrySet()) {
      if (setting.getKey().endsWith("port") || setting.getKey().contains(".port.")) {
        int port = Integer.parseInt(setting.getValue());
        assertThat(listening(port)).as(setting.getKey() + " " + port).isFalse();
      }
    }
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }
}
