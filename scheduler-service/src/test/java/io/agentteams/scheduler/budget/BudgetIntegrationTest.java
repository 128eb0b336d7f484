package io.agentteams.scheduler.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestClock;
import io.agentteams.scheduler.SchedulerApplication;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The budget ledger against real Postgres: a deployment-wide chain budget, a team budget stopping a
 * running job at its next report, a resumed conversation's hold, an admission pass passing over a
 * job whose balance another transaction holds, an owner budget two teams share, a chain's hop
 * budget, and many concurrent requests and settlements against one team budget, which the
 * reservations never overspend. On a database of its own so its budgets never apply to the other
 * tests' jobs.
 */
@RealInfrastructure(database = "scheduler_budget")
@SpringBootTest(
    classes = SchedulerApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + SchedulerApplication.CONFIG_NAME,
      "agentteams.scheduler.replica-id=replica-budget",
      "agentteams.scheduler.budget.chain-tokens=100",
      "agentteams.scheduler.budget.reserve-tokens=10",
      "agentteams.scheduler.dispatch.poll-interval=500ms",
      "agentteams.scheduler.admission.poll-interval=500ms",
      "agentteams.outbox.poll-interval=200ms"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
@Import(TestClock.Config.class)
class BudgetIntegrationTest extends SchedulerIntegrationTest {

  @Autowired private ConnectionFactory connections;

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
    UUID queued = jobIds(handOff(team, "lead", first, "part 1", 201)).get(0);
    assertThat(state(team, queued)).isEqualTo("queued");

    // The lead's run reports the chain's whole budget used.
    lead.report(
        baseUrl(),
        first,
        "completed",
        TestWorker.leaseToken(leadOffer),
        Map.of("answer", "delegated", "usage", Map.of("input_tokens", 60, "output_tokens", 40)));

    Map<?, ?> refused = handOff(team, "lead", first, "part 2", 409);
    assertThat(refused.get("code")).isEqualTo("budget-exceeded");
    assertThat(refused.get("budget")).isEqualTo("chain.tokens");
    assertThat(refused.get("limit")).isEqualTo(100);
    assertThat(refused.get("spent")).isEqualTo(100);
    assertThat(refused.get("remaining")).isEqualTo(0);

    // The helper's conversation frees up: the queued hand-off is refused, not run.
    helper.report(
        baseUrl(), busy, "completed", TestWorker.leaseToken(helperOffer), Map.of("answer", "ok"));
    await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(state(team, queued)));
    Map<?, ?> result = (Map<?, ?>) job(team, queued).get("result");
    assertThat((String) result.get("error")).startsWith("budget-exceeded: chain.tokens");
    assertThat(helper.received().stream().map(TestWorker::jobId)).doesNotContain(queued);
    assertThat(count("SELECT admissions + offers AS n FROM job WHERE id = '" + queued + "'"))
        .as("never admitted, never offered")
        .isZero();

    // Another chain of the same owner is not affected.
    assertThat(request(team, List.of("helper"), "A new chain")).hasSize(1);
  }

  @Test
  void aBudgetSetWhileAJobRunsStopsItAtItsNextReportPastIt() {
    String pia = unique("pia");
    String agent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("lead", agent));
    TestWorker lead = worker(pia, agent, 60);
    // Admitted while the team has no budget: nothing is held on the team.
    UUID job = request(team, List.of("lead"), "Think long").get(0);
    Map<String, Object> offer = lead.nextOffer();
    String lease = TestWorker.leaseToken(offer);
    assertThat(
            lead.report(baseUrl(), job, "started", lease, Map.of("usage", Map.of("tokens", 30)))
                .status())
        .isEqualTo(200);

    setTeamBudget(team, Map.of("max_tokens", 50));
    // Within the new budget: the job runs on, now holding on the team.
    TestWorker.Reply within =
        lead.report(baseUrl(), job, "heartbeat", lease, Map.of("usage", Map.of("tokens", 40)));
    assertThat(within.status()).isEqualTo(200);
    assertThat(within.body().get("state")).isEqualTo("running");
    assertThat(amount(spend(team), "team", "reserved", "tokens")).isEqualTo(40);

    TestWorker.Reply stopped =
        lead.report(baseUrl(), job, "heartbeat", lease, Map.of("usage", Map.of("tokens", 60)));
    assertThat(stopped.body().get("state")).isEqualTo("failed");
    Map<?, ?> result = (Map<?, ?>) job(team, job).get("result");
    assertThat((String) result.get("error")).startsWith("budget-exceeded: team.tokens");
    Map<?, ?> spend = spend(team);
    assertThat(amount(spend, "team", "spent", "tokens")).isEqualTo(60);
    assertThat(amount(spend, "team", "reserved", "tokens")).isZero();
  }

  /**
   * A conversation that asked a question keeps its hold while it waits; the admission that resumes
   * it reserves nothing more (the pass reads the hold as it locks the job's row) and the hold is
   * released once, when the job settles.
   */
  @Test
  void aResumedConversationKeepsItsHoldAndIsNotReservedTwice() {
    String pia = unique("pia");
    String agent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("lead", agent));
    setTeamBudget(team, Map.of("max_tokens", 50));
    TestWorker lead = worker(pia, agent, 60);
    UUID job = request(team, List.of("lead"), "Ask first").get(0);
    Map<String, Object> offer = lead.nextOffer();
    assertThat(reservedTokens(job)).as("the estimate, held at admission").isEqualTo(10);
    assertThat(amount(spend(team), "team", "reserved", "tokens")).isEqualTo(10);

    TestWorker.Reply asked =
        lead.report(
            baseUrl(),
            job,
            "input_required",
            TestWorker.leaseToken(offer),
            Map.of("question", Map.of("kind", "clarification", "text", "Which part?")));
    assertThat(asked.body().get("state")).isEqualTo("waiting_input");
    web.post()
        .uri("/api/v1/jobs/{id}/answer", job)
        .header("Authorization", owner(team.ownerId()))
        .bodyValue(Map.of("text", "The first"))
        .exchange()
        .expectStatus()
        .isOk();

    Map<String, Object> resumed = lead.nextOffer();
    assertThat(TestWorker.jobId(resumed)).isEqualTo(job);
    assertThat(count("SELECT admissions AS n FROM job WHERE id = '" + job + "'")).isEqualTo(2);
    assertThat(reservedTokens(job)).as("still the one estimate").isEqualTo(10);
    assertThat(amount(spend(team), "team", "reserved", "tokens"))
        .as("the second admission reserved nothing more")
        .isEqualTo(10);

    lead.report(
        baseUrl(),
        job,
        "completed",
        TestWorker.leaseToken(resumed),
        Map.of("answer", "ok", "usage", Map.of("tokens", 7)));
    await().atMost(Duration.ofSeconds(30)).until(() -> "completed".equals(state(team, job)));
    Map<?, ?> spend = spend(team);
    assertThat(amount(spend, "team", "spent", "tokens")).isEqualTo(7);
    assertThat(amount(spend, "team", "reserved", "tokens")).isZero();
  }

  /**
   * An admission pass never waits for a balance row: while another transaction holds the team's,
   * passes go on and leave the team's queued job queued (neither admitted without its reservation
   * nor refused); once the row is free the job is admitted holding its estimate.
   */
  @Test
  void aJobWhoseBalanceAnotherTransactionHoldsStaysQueuedWhilePassesGoOn() {
    String pia = unique("pia");
    String agent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("lead", agent));
    setTeamBudget(team, Map.of("max_tokens", 50));
    TestWorker lead = worker(pia, agent, 60);
    // The first job's admission creates the team's balance row; its settlement spends 5.
    UUID first = request(team, List.of("lead"), "First").get(0);
    lead.report(
        baseUrl(),
        first,
        "completed",
        TestWorker.leaseToken(lead.nextOffer()),
        Map.of("answer", "ok", "usage", Map.of("input_tokens", 3, "output_tokens", 2)));
    await().atMost(Duration.ofSeconds(30)).until(() -> "completed".equals(state(team, first)));

    Connection other = Mono.from(connections.create()).block();
    UUID second;
    try {
      Mono.from(other.beginTransaction()).block();
      Flux.from(
              other
                  .createStatement(
                      "SELECT scope FROM ledger WHERE scope = 'team' AND scope_id = $1 FOR UPDATE")
                  .bind("$1", team.id().toString())
                  .execute())
          .flatMap(result -> result.map((row, metadata) -> row.get("scope", String.class)))
          .blockLast();
      long before = passes();
      second = request(team, List.of("lead"), "Second").get(0);
      await().atMost(Duration.ofSeconds(30)).until(() -> passes() >= before + 3);
      assertThat(state(team, second)).isEqualTo("queued");
      assertThat(reservedTokens(second)).isZero();
    } finally {
      Mono.from(other.rollbackTransaction()).block();
      Mono.from(other.close()).block();
    }

    Map<String, Object> offer = lead.nextOffer();
    assertThat(TestWorker.jobId(offer)).isEqualTo(second);
    assertThat(reservedTokens(second)).isEqualTo(10);
    assertThat(amount(spend(team), "team", "reserved", "tokens")).isEqualTo(10);
    assertThat(
            count(
                "SELECT spent_input_tokens * 10 + spent_output_tokens AS n FROM ledger"
                    + " WHERE scope = 'team' AND scope_id = '"
                    + team.id()
                    + "'"))
        .as("the reservation wrote the balance back with what was spent, split as reported")
        .isEqualTo(32);
  }

  @Test
  void aRunningJobWhoseReportGoesPastTheTeamBudgetIsStoppedAtThatReport() {
    String pia = unique("pia");
    String agent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("lead", agent));
    setTeamBudget(team, Map.of("max_tokens", 50));
    TestWorker lead = worker(pia, agent, 60);
    UUID job = request(team, List.of("lead"), "Think hard").get(0);
    Map<String, Object> offer = lead.nextOffer();
    String lease = TestWorker.leaseToken(offer);
    assertThat(
            lead.report(baseUrl(), job, "started", lease, Map.of("usage", Map.of("tokens", 30)))
                .status())
        .isEqualTo(200);
    assertThat(reservedTokens(job)).as("the hold grew to the usage reported").isEqualTo(30);

    TestWorker.Reply stopped =
        lead.report(baseUrl(), job, "heartbeat", lease, Map.of("usage", Map.of("tokens", 60)));
    assertThat(stopped.body().get("state")).isEqualTo("failed");
    Map<?, ?> result = (Map<?, ?>) job(team, job).get("result");
    assertThat((String) result.get("error")).startsWith("budget-exceeded: team.tokens");
    // The lease went with the job: the worker's next report is refused and its turn stops.
    assertThat(lead.report(baseUrl(), job, "heartbeat", lease, Map.of()).status()).isEqualTo(409);

    Map<?, ?> spend = spend(team);
    assertThat(amount(spend, "team", "spent", "tokens")).isEqualTo(60);
    assertThat(amount(spend, "team", "reserved", "tokens")).isZero();
    Map<?, ?> member = (Map<?, ?>) ((List<?>) spend.get("members")).get(0);
    assertThat(member.get("member")).isEqualTo("lead");
    assertThat(((Map<?, ?>) member.get("spent")).get("tokens")).isEqualTo(60);
    assertThat(((Map<?, ?>) ((Map<?, ?>) spend.get("team")).get("budget")).get("max_tokens"))
        .isEqualTo(50);
    assertThat(((Map<?, ?>) spend.get("team")).get("remaining_tokens")).isEqualTo(0);

    Map<?, ?> refused = requestRefused(team, "lead");
    assertThat(refused.get("budget")).isEqualTo("team.tokens");
    assertThat(refused.get("spent")).isEqualTo(60);
  }

  @Test
  void anOwnerBudgetIsSharedByTheOwnersTeams() {
    String pia = unique("pia");
    String agentA = unique("agent");
    String agentB = unique("agent");
    Teams.Team first = teams.create(pia, Map.of("writer", agentA));
    Teams.Team second = teams.create(pia, Map.of("editor", agentB));
    web.put()
        .uri("/api/v1/budget")
        .header("Authorization", owner(pia))
        .bodyValue(Map.of("max_tokens", 100, "currency", "EUR"))
        .exchange()
        .expectStatus()
        .isOk();
    TestWorker writer = worker(pia, agentA, 60);
    TestWorker editor = worker(pia, agentB, 60);

    UUID drafted = request(first, List.of("writer"), "Draft").get(0);
    complete(writer, drafted, 70);
    UUID edited = request(second, List.of("editor"), "Edit").get(0);
    complete(editor, edited, 25);

    // 95 of the owner's 100 are spent, by two teams: neither has room for another job's estimate.
    for (Teams.Team team : List.of(first, second)) {
      Map<?, ?> spend = spend(team);
      assertThat(spend.get("currency")).isEqualTo("EUR");
      assertThat(amount(spend, "owner", "spent", "tokens")).isEqualTo(95);
    }
    assertThat(amount(spend(first), "team", "spent", "tokens")).isEqualTo(70);
    assertThat(amount(spend(second), "team", "spent", "tokens")).isEqualTo(25);
    Map<?, ?> refused = requestRefused(first, "writer");
    assertThat(refused.get("budget")).isEqualTo("owner.tokens");
    assertThat(refused.get("limit")).isEqualTo(100);
    assertThat(refused.get("spent")).isEqualTo(95);
    assertThat(refused.get("remaining")).isEqualTo(5);
    assertThat(requestRefused(second, "editor").get("budget")).isEqualTo("owner.tokens");

    // The owner's account lists each team's total and, like each team's, a trend of 14 days
    // ending today with today's spend in it.
    Map<?, ?> mine = ownerSpend(pia);
    Map<String, Long> perTeam = new HashMap<>();
    for (Object each : (List<?>) mine.get("teams")) {
      Map<?, ?> total = (Map<?, ?>) each;
      perTeam.put((String) total.get("team_id"), ((Number) total.get("tokens")).longValue());
    }
    assertThat(perTeam)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(first.id().toString(), 70L, second.id().toString(), 25L));
    List<?> days = (List<?>) mine.get("daily");
    assertThat(days).hasSize(14);
    Map<?, ?> today = (Map<?, ?>) days.get(13);
    assertThat(today.get("day"))
        .isEqualTo(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
    assertThat(((Number) today.get("tokens")).longValue()).isEqualTo(95);
    assertThat(((Number) today.get("jobs")).longValue()).isEqualTo(2);
    List<?> teamDays = (List<?>) spend(first).get("daily");
    assertThat(teamDays).hasSize(14);
    assertThat(((Number) ((Map<?, ?>) teamDays.get(13)).get("tokens")).longValue()).isEqualTo(70);
  }

  private Map<?, ?> ownerSpend(String ownerId) {
    return web.get()
        .uri("/api/v1/budget")
        .header("Authorization", owner(ownerId))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  /**
   * Reports keep input and output tokens and the model: each measure is the job's total so far
   * (reporting twice with growing numbers counts once), a job counts under the model its latest
   * report named, and the spend shows it per model on the owner, team and each member; a model that
   * is not a bounded printable name is refused with 400 naming the field and nothing is written.
   */
  @Test
  void reportsKeepTheSplitAndTheModelCountedOncePerModelMemberTeamAndOwner() {
    String pia = unique("pia");
    String agentA = unique("agent");
    String agentB = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("writer", agentA, "editor", agentB));
    TestWorker writer = worker(pia, agentA, 60);
    TestWorker editor = worker(pia, agentB, 60);

    UUID drafted = request(team, List.of("writer"), "Draft").get(0);
    Map<String, Object> offer = writer.nextOffer();
    String lease = TestWorker.leaseToken(offer);
    writer.report(baseUrl(), drafted, "started", lease, Map.of());
    for (String bad : List.of("bell\u0007", "x".repeat(129), " ", "rtl\u202Eoverride")) {
      TestWorker.Reply refused =
          writer.report(
              baseUrl(),
              drafted,
              "heartbeat",
              lease,
              Map.of("usage", Map.of("input_tokens", 5, "model", bad)));
      assertThat(refused.status()).as("model %s", bad).isEqualTo(400);
      assertThat(refused.code()).isEqualTo("invalid-model");
      assertThat(refused.body().get("field")).isEqualTo("usage.model");
    }
    assertThat(count("SELECT input_tokens + tokens AS n FROM job WHERE id = '" + drafted + "'"))
        .as("nothing of a refused report is written")
        .isZero();
    assertThat(
            count(
                "SELECT count(*) AS n FROM job WHERE model IS NOT NULL AND id = '" + drafted + "'"))
        .isZero();
    // Totals so far, growing; the model changes on the way (the latest one named counts).
    writer.report(
        baseUrl(),
        drafted,
        "heartbeat",
        lease,
        Map.of("usage", Map.of("input_tokens", 10, "output_tokens", 5, "model", "draft-1")));
    writer.report(
        baseUrl(),
        drafted,
        "heartbeat",
        lease,
        Map.of("usage", Map.of("input_tokens", 30, "output_tokens", 10)));
    writer.report(
        baseUrl(),
        drafted,
        "completed",
        lease,
        Map.of(
            "answer",
            "drafted",
            "usage",
            Map.of("input_tokens", 40, "output_tokens", 20, "cost", 700, "model", "big-1")));
    await().atMost(Duration.ofSeconds(30)).until(() -> "completed".equals(state(team, drafted)));
    Map<?, ?> usage = (Map<?, ?>) job(team, drafted).get("usage");
    assertThat(usage.get("input_tokens")).isEqualTo(40);
    assertThat(usage.get("output_tokens")).isEqualTo(20);
    assertThat(usage.get("tokens")).isEqualTo(60);
    assertThat(usage.get("model")).isEqualTo("big-1");

    UUID polished = request(team, List.of("writer"), "Polish").get(0);
    completeWith(
        writer,
        polished,
        Map.of("input_tokens", 7, "output_tokens", 3, "cost", 10, "model", "small-1"));
    UUID edited = request(team, List.of("editor"), "Edit").get(0);
    completeWith(
        editor, edited, Map.of("input_tokens", 20, "output_tokens", 5, "model", "small-1"));
    UUID checked = request(team, List.of("editor"), "Check").get(0);
    completeWith(editor, checked, Map.of("tokens", 9));

    Map<?, ?> spend = spend(team);
    for (Map<?, ?> line : List.of((Map<?, ?>) spend.get("team"), (Map<?, ?>) spend.get("owner"))) {
      assertThat(amount(line, "input_tokens")).isEqualTo(67);
      assertThat(amount(line, "output_tokens")).isEqualTo(28);
      assertThat(amount(line, "tokens")).isEqualTo(104);
      assertThat(byModel(line))
          .containsOnlyKeys("big-1", "small-1", "unspecified")
          .containsEntry("big-1", List.of(40L, 20L, 60L, 700L, 1L))
          .containsEntry("small-1", List.of(27L, 8L, 35L, 10L, 2L))
          .containsEntry("unspecified", List.of(0L, 0L, 9L, 0L, 1L));
    }
    assertThat(byModel(memberLine(spend, "writer")))
        .containsOnlyKeys("big-1", "small-1")
        .containsEntry("small-1", List.of(7L, 3L, 10L, 10L, 1L));
    assertThat(byModel(memberLine(spend, "editor")))
        .containsOnlyKeys("small-1", "unspecified")
        .containsEntry("small-1", List.of(20L, 5L, 25L, 0L, 1L));
    // Every line's models add up to its spend.
    List<Map<?, ?>> lines = new ArrayList<>();
    for (String kind : List.of("members", "chains")) {
      ((List<?>) spend.get(kind)).forEach(line -> lines.add((Map<?, ?>) line));
    }
    assertThat(lines).hasSize(2 + 4);
    for (Map<?, ?> line : lines) {
      long sum = byModel(line).values().stream().mapToLong(m -> m.get(2)).sum();
      assertThat(sum).as("models of %s", line.get("id")).isEqualTo(amount(line, "tokens"));
    }

    Map<?, ?> own =
        web.get()
            .uri("/api/v1/budget")
            .header("Authorization", owner(pia))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    assertThat(byModel((Map<?, ?>) own.get("owner")))
        .isEqualTo(byModel((Map<?, ?>) spend.get("owner")));
  }

  @Test
  void aHandOffChainIsStoppedByItsHopBudget() {
    String pia = unique("pia");
    String leadAgent = unique("agent");
    String helperAgent = unique("agent");
    Teams.Team team = teams.create(pia, Map.of("lead", leadAgent, "helper", helperAgent));
    TestWorker lead = worker(pia, leadAgent, 60);
    TestWorker helper = worker(pia, helperAgent, 60);
    UUID root =
        jobIds(
                ownerRequest(
                    team,
                    Map.of(
                        "recipients",
                        List.of("lead"),
                        "text",
                        "Pass it on",
                        "budget",
                        Map.of("max_hops", 1))))
            .get(0);
    Map<String, Object> leadOffer = lead.nextOffer();
    lead.report(baseUrl(), root, "started", TestWorker.leaseToken(leadOffer), Map.of());

    UUID hop = jobIds(handOff(team, "lead", root, "hop one", 201)).get(0);
    Map<String, Object> helperOffer = helper.nextOffer();
    assertThat(TestWorker.jobId(helperOffer)).isEqualTo(hop);
    helper.report(baseUrl(), hop, "started", TestWorker.leaseToken(helperOffer), Map.of());

    // The helper hands on within the same chain: a second hop, over the chain's budget of one.
    Map<?, ?> refused = handOffTo(team, "helper", hop, "lead", "hop two", 409);
    assertThat(refused.get("code")).isEqualTo("budget-exceeded");
    assertThat(refused.get("budget")).isEqualTo("chain.hops");
    assertThat(refused.get("limit")).isEqualTo(1);
    assertThat(refused.get("spent")).isEqualTo(1);
    assertThat(refused.get("scope_id")).isEqualTo(root.toString());
    assertThat(count("SELECT count(*) AS n FROM job WHERE chain_id = '" + root + "'"))
        .as("the refused hop left nothing written")
        .isEqualTo(2);
  }

  @Test
  void concurrentRequestsAdmissionsAndSettlementsNeverReserveOrSpendPastTheTeamBudget()
      throws Exception {
    String pia = unique("pia");
    int members = 8;
    int perMember = 5;
    Map<String, String> roster = new HashMap<>();
    for (int i = 0; i < members; i++) {
      roster.put("m" + i, unique("agent"));
    }
    Teams.Team team = teams.create(pia, roster);
    setTeamBudget(team, Map.of("max_tokens", 100));

    // Every request at once, from as many threads.
    ExecutorService pool = Executors.newFixedThreadPool(members * 2 + 1);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<UUID>>> sent = new ArrayList<>();
      for (int i = 0; i < members * perMember; i++) {
        String to = "m" + (i % members);
        sent.add(
            pool.submit(
                () -> {
                  go.await();
                  return request(team, List.of(to), "Work item");
                }));
      }
      go.countDown();
      for (Future<List<UUID>> f : sent) {
        assertThat(f.get()).hasSize(1);
      }

      // Workers report usage up to the estimate, some with a heartbeat first, all concurrently;
      // after each report the ledger is sampled: what is spent and held never passes the budget.
      AtomicBoolean done = new AtomicBoolean();
      AtomicLong highest = new AtomicLong();
      Map<UUID, Long> used = new ConcurrentHashMap<>();
      List<Future<?>> running = new ArrayList<>();
      for (Map.Entry<String, String> m : roster.entrySet()) {
        TestWorker w = worker(pia, m.getValue(), 60);
        running.add(pool.submit(() -> work(team, w, used, done, highest)));
      }
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> unfinished(team) == 0);
      done.set(true);
      for (Future<?> f : running) {
        f.get();
      }
      highest.accumulateAndGet(committed(team), Math::max);

      long spent = used.values().stream().mapToLong(Long::longValue).sum();
      assertThat(highest.get()).as("spent + reserved, sampled").isLessThanOrEqualTo(100);
      assertThat(spent).isLessThanOrEqualTo(100).isPositive();
      Map<?, ?> spend = spend(team);
      assertThat(amount(spend, "team", "spent", "tokens")).isEqualTo(spent);
      assertThat(amount(spend, "team", "reserved", "tokens")).isZero();
      assertThat(
              count(
                  "SELECT count(*) AS n FROM ledger WHERE team_id = '"
                      + team.id()
                      + "' AND (reserved_tokens <> 0 OR reserved_cost <> 0)"))
          .as("every hold released")
          .isZero();
      long refused =
          count(
              "SELECT count(*) AS n FROM job WHERE team_id = '"
                  + team.id()
                  + "' AND state = 'failed' AND budget_stop = 'team.tokens'");
      assertThat(refused).as("the rest refused naming the team budget").isPositive();
      assertThat(used.size() + refused).isEqualTo(members * perMember);
    } finally {
      pool.shutdownNow();
    }
  }

  private void work(
      Teams.Team team,
      TestWorker worker,
      Map<UUID, Long> used,
      AtomicBoolean done,
      AtomicLong highest) {
    AtomicReference<Map<String, Object>> next = new AtomicReference<>();
    while (true) {
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(20))
          .until(
              () -> {
                worker.pollOffer().ifPresent(next::set);
                return done.get() || next.get() != null;
              });
      Map<String, Object> offer = next.getAndSet(null);
      if (offer == null) {
        return;
      }
      UUID id = TestWorker.jobId(offer);
      String lease = TestWorker.leaseToken(offer);
      long tokens = ThreadLocalRandom.current().nextLong(1, 11);
      if (tokens % 2 == 0) {
        assertThat(
                worker
                    .report(
                        baseUrl(),
                        id,
                        "heartbeat",
                        lease,
                        Map.of("usage", Map.of("tokens", tokens / 2)))
                    .status())
            .isEqualTo(200);
      }
      TestWorker.Reply reply =
          worker.report(
              baseUrl(),
              id,
              "completed",
              lease,
              Map.of("answer", "done", "usage", Map.of("tokens", tokens)));
      assertThat(reply.status()).as("%s", reply.body()).isEqualTo(200);
      if (reply.status() == 200) {
        used.put(id, tokens);
      }
      highest.accumulateAndGet(committed(team), Math::max);
    }
  }

  private long unfinished(Teams.Team team) {
    return count(
        "SELECT count(*) AS n FROM job WHERE team_id = '"
            + team.id()
            + "' AND state NOT IN ('completed', 'failed', 'cancelled')");
  }

  private long committed(Teams.Team team) {
    Long value =
        db.sql(
                "SELECT spent_tokens + reserved_tokens AS n FROM ledger"
                    + " WHERE scope = 'team' AND scope_id = :team")
            .bind("team", team.id().toString())
            .map(row -> row.get("n", Long.class))
            .one()
            .block();
    return value == null ? 0 : value;
  }

  private void completeWith(TestWorker worker, UUID job, Map<String, ?> usage) {
    Map<String, Object> offer = worker.nextOffer();
    assertThat(TestWorker.jobId(offer)).isEqualTo(job);
    worker.report(
        baseUrl(),
        job,
        "completed",
        TestWorker.leaseToken(offer),
        Map.of("answer", "ok", "usage", usage));
    await().atMost(Duration.ofSeconds(30)).until(() -> "completed".equals(state(null, job)));
  }

  /** A spend line's spent measure. */
  private static long amount(Map<?, ?> line, String measure) {
    return ((Number) ((Map<?, ?>) line.get("spent")).get(measure)).longValue();
  }

  /** A spend line's models: input, output and all tokens, cost and jobs of each. */
  private static Map<String, List<Long>> byModel(Map<?, ?> line) {
    Map<String, List<Long>> models = new java.util.LinkedHashMap<>();
    for (Object each : (List<?>) line.get("by_model")) {
      Map<?, ?> m = (Map<?, ?>) each;
      models.put(
          (String) m.get("model"),
          java.util.stream.Stream.of("input_tokens", "output_tokens", "tokens", "cost", "jobs")
              .map(k -> ((Number) m.get(k)).longValue())
              .toList());
    }
    return models;
  }

  private static Map<?, ?> memberLine(Map<?, ?> spend, String member) {
    for (Object line : (List<?>) spend.get("members")) {
      if (member.equals(((Map<?, ?>) line).get("member"))) {
        return (Map<?, ?>) line;
      }
    }
    throw new AssertionError("no spend line for " + member + " in " + spend);
  }

  private void complete(TestWorker worker, UUID job, long tokens) {
    Map<String, Object> offer = worker.nextOffer();
    assertThat(TestWorker.jobId(offer)).isEqualTo(job);
    worker.report(
        baseUrl(),
        job,
        "completed",
        TestWorker.leaseToken(offer),
        Map.of("answer", "ok", "usage", Map.of("tokens", tokens, "model", "fake-1")));
    await().atMost(Duration.ofSeconds(30)).until(() -> "completed".equals(state(null, job)));
  }

  @Override
  protected Map<?, ?> job(Teams.Team team, UUID jobId) {
    return web.get()
        .uri("/api/v1/jobs/{id}", jobId)
        .header("Authorization", owner(ownerOf(jobId)))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private String ownerOf(UUID jobId) {
    return db.sql("SELECT owner_id FROM job WHERE id = :id")
        .bind("id", jobId)
        .map(row -> row.get("owner_id", String.class))
        .one()
        .block();
  }

  private long reservedTokens(UUID job) {
    return count("SELECT reserved_tokens AS n FROM job WHERE id = '" + job + "'");
  }

  /** Admission passes so far, across the deployment. */
  private long passes() {
    return count("SELECT passes AS n FROM admission_control WHERE id = 1");
  }

  private long count(String sql) {
    return db.sql(sql).map(row -> row.get("n", Number.class).longValue()).one().block();
  }

  private void setTeamBudget(Teams.Team team, Map<String, ?> budget) {
    web.put()
        .uri("/api/v1/teams/{team}/budget", team.id())
        .header("Authorization", owner(team.ownerId()))
        .bodyValue(budget)
        .exchange()
        .expectStatus()
        .isOk();
  }

  private Map<?, ?> spend(Teams.Team team) {
    return web.get()
        .uri("/api/v1/teams/{team}/spend", team.id())
        .header("Authorization", owner(team.ownerId()))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private static long amount(Map<?, ?> spend, String line, String what, String measure) {
    return ((Number) ((Map<?, ?>) ((Map<?, ?>) spend.get(line)).get(what)).get(measure))
        .longValue();
  }

  private Map<?, ?> requestRefused(Teams.Team team, String to) {
    Map<?, ?> refused =
        web.post()
            .uri("/api/v1/teams/{team}/requests", team.id())
            .header("Authorization", owner(team.ownerId()))
            .bodyValue(Map.of("recipients", List.of(to), "text", "One more"))
            .exchange()
            .expectStatus()
            .isEqualTo(409)
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    assertThat(refused.get("code")).isEqualTo("budget-exceeded");
    return refused;
  }

  private Map<?, ?> ownerRequest(Teams.Team team, Map<String, ?> body) {
    return web.post()
        .uri("/api/v1/teams/{team}/requests", team.id())
        .header("Authorization", owner(team.ownerId()))
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .isCreated()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private Map<?, ?> handOff(Teams.Team team, String from, UUID executing, String text, int status) {
    return handOffTo(team, from, executing, "helper", text, status);
  }

  private Map<?, ?> handOffTo(
      Teams.Team team, String from, UUID executing, String to, String text, int status) {
    return web.post()
        .uri("/api/v1/teams/{team}/requests", team.id())
        .header("Authorization", member(team, from, executing))
        .bodyValue(Map.of("recipients", List.of(to), "text", text))
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private static List<UUID> jobIds(Map<?, ?> created) {
    return ((List<?>) created.get("jobs"))
        .stream().map(job -> UUID.fromString((String) ((Map<?, ?>) job).get("id"))).toList();
  }
}
