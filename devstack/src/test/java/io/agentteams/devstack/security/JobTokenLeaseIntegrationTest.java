package io.agentteams.devstack.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.SharedStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * A job-scoped member token acts only under the lease it was handed out with: once its job is
 * offered again, the earlier offer's token is refused at the gateway while the new one acts, and
 * once the job ends neither does.
 */
class JobTokenLeaseIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private final Api api = new Api(SharedStack.get().url(Service.GATEWAY));

  @Test
  void aTokenOfTheFirstLeaseIsRefusedOnceTheJobIsOfferedAgainUnderASecond() {
    String owner = api.ownerToken("lena-leases-" + UUID.randomUUID());
    String agent = "leased-" + UUID.randomUUID().toString().substring(0, 8);
    api.post("/api/v1/agents", owner, Map.of("id", agent, "name", agent)).ok();
    String team = api.readyTeamOfOneAgent(owner, agent, "lease team", "Be offered twice");
    String worker = api.workerToken(owner, agent);
    BlockingQueue<JsonNode> offers = new LinkedBlockingQueue<>();
    Disposable stream =
        api.stream("/api/v1/agents/" + agent + "/jobs/stream", worker)
            .filter(event -> "job".equals(event.event()))
            .map(ServerSentEvent::data)
            .map(api::json)
            .subscribe(offers::add, failure -> {});
    try {
      String job =
          api.post(
                  "/api/v1/teams/" + team + "/requests",
                  owner,
                  Map.of("recipients", List.of("lead"), "text", "Take me twice"))
              .ok()
              .get("jobs")
              .get(0)
              .get("id")
              .asString();
      JsonNode first = await().atMost(PATIENCE).until(offers::poll, Objects::nonNull);
      assertThat(first.get("job_id").asString()).isEqualTo(job);
      String firstToken = first.get("member_token").asString();
      assertThat(api.get("/api/v1/teams/" + team + "/state", firstToken).status())
          .as("the first lease's token while it is the job's lease")
          .isEqualTo(200);

      // The worker gives the job back before starting it: it is offered again, under lease 2.
      api.post(
              "/api/v1/jobs/" + job + "/events",
              worker,
              Map.of("type", "released", "lease_token", first.get("lease_token").asString()))
          .ok();
      JsonNode second = await().atMost(PATIENCE).until(offers::poll, Objects::nonNull);
      assertThat(second.get("job_id").asString()).isEqualTo(job);
      assertThat(second.get("offer").asInt()).isEqualTo(2);
      String secondToken = second.get("member_token").asString();

      assertJobEnded(api.get("/api/v1/teams/" + team + "/state", firstToken));
      assertJobEnded(
          api.post(
              "/api/v1/teams/" + team + "/requests",
              firstToken,
              Map.of("recipients", List.of("second"), "text", "A hand-off from an old lease")));
      assertThat(api.get("/api/v1/teams/" + team + "/state", secondToken).status())
          .as("the second lease's token")
          .isEqualTo(200);

      String lease = second.get("lease_token").asString();
      api.post(
              "/api/v1/jobs/" + job + "/events",
              worker,
              Map.of("type", "started", "lease_token", lease))
          .ok();
      api.post(
              "/api/v1/jobs/" + job + "/events",
              worker,
              Map.of("type", "completed", "lease_token", lease, "answer", "done"))
          .ok();
      assertJobEnded(api.get("/api/v1/teams/" + team + "/state", secondToken));
    } finally {
      stream.dispose();
    }
  }

  private static void assertJobEnded(Api.Response response) {
    assertThat(response.status()).as(response.raw()).isEqualTo(401);
    assertThat(response.body().get("code").asString()).isEqualTo("token-job-ended");
  }
}
