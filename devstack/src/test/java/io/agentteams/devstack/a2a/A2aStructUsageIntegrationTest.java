package io.agentteams.devstack.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Usage an A2A agent reports with every number written as protobuf's {@code Struct} writes it
 * ({@code 11.0}, as agents built on the Python A2A SDK send it) counts as the whole number: in the
 * job, in the team's and the owner's spend, and against the owner's budget. The agent is the polled
 * one of {@link A2aPeer}, whose final task carries the usage in {@code metadata.usage}.
 */
@RealInfrastructure
class A2aStructUsageIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static Api api;
  private static A2aPeer peer;

  @BeforeAll
  static void startTheAgent() throws Exception {
    api = new Api(SharedStack.get().url(Service.GATEWAY));
    peer = new A2aPeer();
  }

  @AfterAll
  static void stopTheAgent() {
    if (peer != null) {
      peer.close();
    }
  }

  @Test
  void usageWrittenAsStructNumbersReachesTheJobAndTheLedger() throws Exception {
    String owner = api.ownerToken("ada-struct-usage");
    api.post(
            "/api/v1/agents",
            owner,
            Map.of(
                "id",
                "struct-agent",
                "name",
                "Struct agent",
                "runtime",
                Map.of("kind", "a2a", "endpoint", peer.pollingUrl())))
        .ok();
    String team = api.readyTeamOfOneAgent(owner, "struct-agent", "Struct", "Count protobuf usage");
    api.call(HttpMethod.PUT, "/api/v1/budget", owner, Map.of("max_tokens", 1000)).ok();

    String job =
        api.post(
                "/api/v1/teams/" + team + "/requests",
                owner,
                Map.of(
                    "recipients",
                    List.of("second"),
                    "text",
                    "struct: count the quarter",
                    "idempotency_key",
                    "struct-1"))
            .ok()
            .get("jobs")
            .get(0)
            .get("id")
            .asString();
    JsonNode done =
        await()
            .atMost(PATIENCE)
            .until(
                () -> api.get("/api/v1/jobs/" + job, owner).ok(),
                j ->
                    List.of("completed", "failed", "cancelled", "interrupted")
                        .contains(j.get("state").asString()));

    assertThat(done.get("state").asString()).isEqualTo("completed");
    assertThat(strings(peer.log().get("usageWritten")))
        .as("the agent wrote the numbers with a zero fraction")
        .contains("{\"input_tokens\":11.0,\"output_tokens\":7.0,\"model\":\"struct-model\"}");
    assertThat(usage(done.get("usage"))).isEqualTo("struct-model 11/7 18");

    JsonNode spend = api.get("/api/v1/teams/" + team + "/spend", owner).ok();
    for (JsonNode line : List.of(spend.get("team"), spend.get("owner"))) {
      assertThat(spent(line.get("spent"))).isEqualTo("11/7 18");
      assertThat(line.get("reserved").get("tokens").asLong()).isZero();
      JsonNode model = line.get("by_model").get(0);
      assertThat(model.get("model").asString()).isEqualTo("struct-model");
      assertThat(spent(model)).isEqualTo("11/7 18");
    }

    JsonNode budget = api.get("/api/v1/budget", owner).ok().get("owner");
    assertThat(spent(budget.get("spent"))).isEqualTo("11/7 18");
    assertThat(budget.get("budget").get("max_tokens").asLong()).isEqualTo(1000);
    assertThat(budget.get("remaining_tokens").asLong()).isEqualTo(1000 - 18);
  }

  /** A job's usage as {@code model input/output tokens}. */
  private static String usage(JsonNode usage) {
    return usage.get("model").asString() + " " + spent(usage);
  }

  /** Spent amounts as {@code input/output tokens}. */
  private static String spent(JsonNode amounts) {
    return amounts.get("input_tokens").asLong()
        + "/"
        + amounts.get("output_tokens").asLong()
        + " "
        + amounts.get("tokens").asLong();
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asString()));
    return values;
  }
}
