package io.agentteams.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestClock;
import io.agentteams.scheduler.SchedulerApplication;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;

/**
 * A scheduler with a per-chain token budget, on a database of its own so that its budget never
 * applies to the other tests' jobs.
 */
@RealInfrastructure(database = "scheduler_budget")
@SpringBootTest(
    classes = SchedulerApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + SchedulerApplication.CONFIG_NAME,
      "agentteams.scheduler.replica-id=replica-budget",
      "agentteams.scheduler.budget.chain-tokens=100",
      "agentteams.scheduler.dispatch.poll-interval=500ms",
      "agentteams.scheduler.admission.poll-interval=500ms",
      "agentteams.outbox.poll-interval=200ms"
    })
@AutoConfigureWebTestClient
@Import(TestClock.Config.class)
class BudgetIntegrationTest extends SchedulerIntegrationTest {

  @Test
  void anExhaustedChainBudgetRefusesQueuedWorkAtAdmissionAndNewHandOffsByName() {
    String pia = unique("pia");
    String leadAgent = unique("agent");
    String helperAgent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("lead", leadAgent, "helper", helperAgent));
    TestWorker lead = worker(pia, leadAgent, 60);
    TestWorker helper = worker(pia, helperAgent, 60);
    UUID first = request(team, List.of("lead"), "Coordinate").get(0);
    UUID busy = request(team, List.of("helper"), "Keeps the helper busy").get(0);
    Map<String, Object> leadOffer = lead.nextOffer();
    Map<String, Object> helperOffer = helper.nextOffer();
    assertThat(TestWorker.jobId(helperOffer)).isEqualTo(busy);
    lead.report(baseUrl(), first, "started", TestWorker.leaseToken(leadOffer), Map.of());

    // Queued behind the helper's running job, within the budget when it is sent.
    UUID queued =
        UUID.fromString(
            (String)
                ((Map<?, ?>) ((List<?>) handOff(team, first, "part 1", 201).get("jobs")).get(0))
                    .get("id"));
    assertThat(state(team, queued)).isEqualTo("queued");

    // The lead's run reports the chain's whole budget used.
    lead.report(
        baseUrl(),
        first,
        "completed",
        TestWorker.leaseToken(leadOffer),
        Map.of("answer", "delegated", "usage", Map.of("tokens", 100)));

    Map<?, ?> refused = handOff(team, first, "part 2", 422);
    assertThat(refused.get("limit")).isEqualTo("scheduler.budget.chain-tokens");
    assertThat(refused.get("max")).isEqualTo(100);

    // The helper's conversation frees up: the queued hand-off is refused, not run.
    helper.report(
        baseUrl(), busy, "completed", TestWorker.leaseToken(helperOffer), Map.of("answer", "ok"));
    await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(state(team, queued)));
    Map<?, ?> result = (Map<?, ?>) job(team, queued).get("result");
    assertThat((String) result.get("error"))
        .startsWith("refused at admission")
        .contains("scheduler.budget.chain-tokens");
    assertThat(helper.received().stream().map(TestWorker::jobId)).doesNotContain(queued);
    assertThat(
            db.sql("SELECT admissions + offers AS n FROM job WHERE id = :id")
                .bind("id", queued)
                .map(row -> row.get("n", Number.class).longValue())
                .one()
                .block())
        .as("never admitted, never offered")
        .isZero();

    // Another chain of the same owner is not affected.
    assertThat(request(team, List.of("helper"), "A new chain")).hasSize(1);
  }

  private Map<?, ?> handOff(Teams.Team team, UUID executing, String text, int status) {
    return web.post()
        .uri("/api/v1/teams/{team}/requests", team.id())
        .header("Authorization", member(team, "lead", executing))
        .bodyValue(Map.of("recipients", List.of("helper"), "text", text))
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }
}
