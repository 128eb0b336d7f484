package io.agentteams.scheduler.job.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

@SchedulerServiceTest
class JobApiIntegrationTest extends SchedulerIntegrationTest {

  @Test
  void anOwnersRequestBecomesOneAnnouncedJobPerSelectedRecipient() {
    String alice = unique("alice");
    Teams.Team team =
        teams.create(
            alice,
            Map.of(
                "writer", unique("agent"), "editor", unique("agent"), "critic", unique("agent")));

    List<UUID> jobs = request(team, List.of("writer", "editor"), "Draft the summary");

    assertThat(jobs).hasSize(2);
    Map<?, ?> writer = job(team, jobs.get(0));
    Map<?, ?> editor = job(team, jobs.get(1));
    assertThat(writer.get("member")).isEqualTo("writer");
    assertThat(editor.get("member")).isEqualTo("editor");
    assertThat(writer.get("kind")).isEqualTo("request");
    assertThat(writer.get("requester")).isEqualTo("owner");
    assertThat(writer.get("input")).isEqualTo("Draft the summary");
    assertThat(writer.get("chain_id"))
        .as("each request starts its own chain")
        .isNotEqualTo(editor.get("chain_id"));
    assertThat(writer.get("state")).isIn("queued", "admitted");
    for (UUID job : jobs) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(events.ofType(job, "JobRequested")).hasSize(1);
                assertThat(events.states(job)).startsWith("queued", "admitted");
              });
      assertThat(events.ofType(job, "JobStateChanged").get(0).sequence()).isEqualTo(1);
      assertThat(events.ofType(job, "JobStateChanged").get(0).teamId())
          .isEqualTo(team.id().toString());
    }

    web.get()
        .uri("/api/v1/jobs/{id}", jobs.get(0))
        .header("Authorization", owner(unique("mallory")))
        .exchange()
        .expectStatus()
        .isNotFound()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
  }

  @Test
  void aJobIsLiveOnlyUnderItsCurrentLeaseForItsOwnMemberUntilItEndsAndNotFoundForAnyOther() {
    String erin = unique("erin");
    String agent = unique("agent");
    Teams.Team team = teams.create(erin, Map.of("one", agent, "two", unique("agent")));
    UUID job = request(team, List.of("one"), "Work").get(0);
    assertThat(live(member(team, "one", job, 1), job))
        .as("no worker is connected: no runtime holds a lease on it yet")
        .isFalse();

    TestWorker worker = worker(erin, agent, 30);
    Map<String, Object> first = worker.nextOffer();
    int firstLease = lease(first);
    assertThat(live(member(team, "one", job, firstLease), job)).isTrue();
    assertThat(live(member(team, "one", job, null), job)).as("a token naming no lease").isFalse();
    liveness(member(team, "two", job, firstLease), job).expectStatus().isNotFound();
    UUID missing = UUID.randomUUID();
    liveness(member(team, "one", missing, 1), missing).expectStatus().isNotFound();

    // Given back and offered again: only the second offer's lease is live.
    worker.report(baseUrl(), job, "released", TestWorker.leaseToken(first), Map.of());
    assertThat(live(member(team, "one", job, firstLease), job)).as("given back").isFalse();
    Map<String, Object> second = worker.nextOffer();
    assertThat(lease(second)).isGreaterThan(firstLease);
    assertThat(live(member(team, "one", job, firstLease), job)).as("offered again").isFalse();
    assertThat(live(member(team, "one", job, lease(second)), job)).isTrue();

    web.post()
        .uri("/api/v1/jobs/{id}/cancel", job)
        .header("Authorization", owner(erin))
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(live(member(team, "one", job, lease(second)), job)).as("ended").isFalse();
  }

  /** The lease number the offer's member token names. */
  private static int lease(Map<String, Object> offer) {
    Caller.Member member =
        (Caller.Member) TestIdentity.jobMemberVerifier().verify((String) offer.get("member_token"));
    assertThat(member.lease()).isEqualTo(offer.get("offer"));
    return member.lease();
  }

  private boolean live(String token, UUID job) {
    return Boolean.TRUE.equals(
        liveness(token, job)
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody()
            .get("live"));
  }

  private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec liveness(
      String token, UUID job) {
    return web.get()
        .uri("/api/internal/v1/jobs/{id}/liveness", job)
        .header("Authorization", token)
        .exchange();
  }

  @Test
  void retryingWithTheSameKeyReturnsTheSameJobsAndAnotherBodyWithTheKeyIsRefused() {
    String bob = unique("bob");
    Teams.Team team = teams.create(bob, Map.of("one", unique("agent"), "two", unique("agent")));
    Map<String, Object> body =
        Map.of("recipients", List.of("one", "two"), "text", "Plan", "idempotency_key", "plan-1");

    Map<?, ?> first = post(team, body, 201);
    Map<?, ?> retry =
        post(
            team,
            Map.of(
                "recipients", List.of("two", "one"), "text", "Plan", "idempotency_key", "plan-1"),
            200);
    assertThat(retry.get("replayed")).isEqualTo(true);
    assertThat(ids(retry)).isEqualTo(ids(first));

    Map<?, ?> refused =
        post(
            team,
            Map.of("recipients", List.of("one"), "text", "Plan", "idempotency_key", "plan-1"),
            409);
    assertThat(refused.get("code")).isEqualTo("idempotency-key-reused");
    assertThat(teamJobCount(team)).isEqualTo(2);
  }

  @Test
  void refusedRequestsNameTheProblemAndLeaveNothingWritten() {
    String carol = unique("carol");
    Teams.Team team = teams.create(carol, Map.of("one", unique("agent"), "two", unique("agent")));

    assertThat(
            post(team, Map.of("recipients", List.of("one", "ghost"), "text", "x"), 400).get("code"))
        .isEqualTo("unknown-member");
    Map<?, ?> tooLong =
        post(team, Map.of("recipients", List.of("one"), "text", "é".repeat(4001)), 422);
    assertThat(tooLong.get("limit")).isEqualTo("job.input.max-chars");
    Map<?, ?> tooManyBytes =
        post(team, Map.of("recipients", List.of("one"), "text", "😀".repeat(2001)), 422);
    assertThat(tooManyBytes.get("limit")).isEqualTo("job.input.max-bytes");
    assertThat(post(team, Map.of("recipients", List.of("one"), "text", "\ud800x"), 400).get("code"))
        .isEqualTo("unpaired-surrogate");
    assertThat(post(team, Map.of("recipients", List.of(), "text", "x"), 400).get("code"))
        .isEqualTo("no-recipients");
    web.post()
        .uri("/api/v1/teams/{team}/requests", team.id())
        .header("Authorization", owner(unique("mallory")))
        .bodyValue(Map.of("recipients", List.of("one"), "text", "x"))
        .exchange()
        .expectStatus()
        .isNotFound();
    assertThat(teamJobCount(team)).isZero();
  }

  @Test
  void ifBusyRejectRefusesARequestToABusyConversationNamingItsJobAndEnqueueQueuesBehindIt() {
    String dora = unique("dora");
    Teams.Team team = teams.create(dora, Map.of("one", unique("agent"), "two", unique("agent")));
    UUID running = request(team, List.of("one"), "First").get(0);

    Map<?, ?> refused =
        post(
            team,
            Map.of("recipients", List.of("one", "two"), "text", "Now", "if_busy", "reject"),
            409);
    assertThat(refused.get("code")).isEqualTo("conversation-busy");
    assertThat(refused.get("member")).isEqualTo("one");
    assertThat(refused.get("job_id")).isEqualTo(running.toString());
    assertThat(teamJobCount(team)).as("nothing written, not even for the idle member").isEqualTo(1);

    // The idle member's conversation takes it; the default queues behind the busy one.
    post(team, Map.of("recipients", List.of("two"), "text", "Now", "if_busy", "reject"), 201);
    post(team, Map.of("recipients", List.of("one"), "text", "Later"), 201);
    post(team, Map.of("recipients", List.of("one"), "text", "Later", "if_busy", "enqueue"), 201);
    assertThat(teamJobCount(team)).isEqualTo(4);
    assertThat(
            post(team, Map.of("recipients", List.of("two"), "text", "x", "if_busy", "later"), 400)
                .get("code"))
        .isEqualTo("invalid-if-busy");
  }

  @Test
  void aQuestionReleasesTheSlotAndTheAnswerQueuesTheJobAgainWithTheAnswerInItsOffer() {
    String dave = unique("dave");
    String agent = unique("agent");
    Teams.Team team = teams.create(dave, Map.of("analyst", agent, "other", unique("agent")));
    TestWorker worker = worker(dave, agent, 30);
    UUID first = request(team, List.of("analyst"), "Compare the offers").get(0);
    UUID second = request(team, List.of("analyst"), "Then write it up").get(0);

    Map<String, Object> offer = worker.nextOffer();
    assertThat(TestWorker.jobId(offer)).isEqualTo(first);
    String lease = TestWorker.leaseToken(offer);
    assertThat(worker.report(baseUrl(), first, "started", lease, Map.of()).status()).isEqualTo(200);
    TestWorker.Reply asked =
        worker.report(
            baseUrl(),
            first,
            "input_required",
            lease,
            Map.of("question", Map.of("kind", "clarification", "text", "Which currency?")));
    assertThat(asked.body().get("state")).isEqualTo("waiting_input");
    Map<?, ?> waiting = job(team, first);
    assertThat(((Map<?, ?>) waiting.get("question")).get("text")).isEqualTo("Which currency?");
    assertThat(slotHeldBy(first)).as("waiting for input releases the slot").isFalse();
    assertThat(state(team, second)).as("but keeps the conversation").isEqualTo("queued");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> events.ofType(first, "JobInputRequired").size() == 1);

    assertThat(answer(team, first, Map.of("text", "x".repeat(4001)), 422).get("limit"))
        .isEqualTo("job.answer.max-chars");
    assertThat(answer(team, first, Map.of("response", Map.of("pick", "eur")), 400).get("code"))
        .isEqualTo("answer-kind-mismatch");
    Map<?, ?> answered = answer(team, first, Map.of("text", "Euros"), 200);
    assertThat(answered.get("state")).isIn("queued", "admitted");

    Map<String, Object> resumed = worker.nextOffer();
    assertThat(TestWorker.jobId(resumed)).isEqualTo(first);
    Map<?, ?> resume = (Map<?, ?>) resumed.get("resume");
    assertThat(resume.get("question")).isEqualTo("Which currency?");
    assertThat(resume.get("answer")).isEqualTo("Euros");
    assertThat(resumed.get("reconcile")).isEqualTo(false);
    assertThat(worker.report(baseUrl(), first, "heartbeat", lease, Map.of()).code())
        .as("the lease of the first run is gone")
        .isEqualTo("stale-lease");
    String resumedLease = TestWorker.leaseToken(resumed);
    worker.report(
        baseUrl(), first, "completed", resumedLease, Map.of("answer", "Offer B, in euros"));

    Map<String, Object> next = worker.nextOffer();
    assertThat(TestWorker.jobId(next)).as("the conversation moves on in order").isEqualTo(second);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(events.states(first))
                    .containsSubsequence(
                        "queued",
                        "admitted",
                        "running",
                        "waiting_input",
                        "queued",
                        "admitted",
                        "completed"));
  }

  @Test
  void anInterruptIsAnsweredWithJsonWithinItsByteLimit() {
    String erin = unique("erin");
    String agent = unique("agent");
    Teams.Team team = teams.create(erin, Map.of("approver", agent, "other", unique("agent")));
    TestWorker worker = worker(erin, agent, 30);
    UUID job = request(team, List.of("approver"), "Deploy").get(0);
    Map<String, Object> offer = worker.nextOffer();
    worker.report(
        baseUrl(),
        job,
        "input_required",
        TestWorker.leaseToken(offer),
        Map.of(
            "question",
            Map.of("kind", "interrupt", "payload", Map.of("action", "deploy", "env", "prod"))));

    Map<?, ?> waiting = job(team, job);
    assertThat(((Map<?, ?>) waiting.get("question")).get("payload"))
        .isEqualTo(Map.of("action", "deploy", "env", "prod"));
    assertThat(answer(team, job, Map.of("text", "yes"), 400).get("code"))
        .isEqualTo("answer-kind-mismatch");
    assertThat(
            answer(team, job, Map.of("response", Map.of("note", "x".repeat(8000))), 422)
                .get("limit"))
        .isEqualTo("job.answer-json.max-bytes");
    answer(team, job, Map.of("response", Map.of("approved", true)), 200);
    Map<?, ?> resume = (Map<?, ?>) worker.nextOffer().get("resume");
    assertThat(resume.get("kind")).isEqualTo("interrupt");
    assertThat(resume.get("response")).isEqualTo(Map.of("approved", true));
  }

  @Test
  void cancellingReleasesTheSlotAndTheWorkerLearnsItOnItsNextReport() {
    String frank = unique("frank");
    String agent = unique("agent");
    Teams.Team team = teams.create(frank, Map.of("runner", agent, "other", unique("agent")));
    TestWorker worker = worker(frank, agent, 30);
    UUID job = request(team, List.of("runner"), "Long task").get(0);
    Map<String, Object> offer = worker.nextOffer();
    worker.report(baseUrl(), job, "started", TestWorker.leaseToken(offer), Map.of());
    assertThat(slotHeldBy(job)).isTrue();

    Map<?, ?> cancelled = cancel(team, job, 200);
    assertThat(cancelled.get("state")).isEqualTo("cancelled");
    assertThat(cancel(team, job, 200).get("state"))
        .as("cancelling twice is harmless")
        .isEqualTo("cancelled");
    assertThat(slotHeldBy(job)).isFalse();
    TestWorker.Reply heartbeat =
        worker.report(baseUrl(), job, "heartbeat", TestWorker.leaseToken(offer), Map.of());
    assertThat(heartbeat.status()).isEqualTo(409);
    assertThat(heartbeat.code()).isEqualTo("job-finished");
    assertThat(heartbeat.body().get("state")).isEqualTo("cancelled");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(events.ofType(job, "JobResultRecorded"))
                    .singleElement()
                    .satisfies(
                        e -> assertThat(e.data().get("status").asString()).isEqualTo("cancelled")));
  }

  @Test
  void activityPairsEachRequestWithItsResultAndTheHandOffWithItsReceipt() {
    String gina = unique("gina");
    String leadAgent = unique("agent");
    String helperAgent = unique("agent");
    Teams.Team team = teams.create(gina, Map.of("lead", leadAgent, "helper", helperAgent));
    TestWorker lead = worker(gina, leadAgent, 30);
    TestWorker helper = worker(gina, helperAgent, 30);

    UUID request = request(team, List.of("lead"), "Research and report").get(0);
    Map<String, Object> leadOffer = lead.nextOffer();
    lead.report(baseUrl(), request, "started", TestWorker.leaseToken(leadOffer), Map.of());
    Map<?, ?> handed =
        web.post()
            .uri("/api/v1/teams/{team}/requests", team.id())
            .header("Authorization", "Bearer " + leadOffer.get("member_token"))
            .bodyValue(
                Map.of(
                    "recipients",
                    List.of("helper"),
                    "text",
                    "Find the numbers",
                    "idempotency_key",
                    "h1"))
            .exchange()
            .expectStatus()
            .isUnauthorized()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    assertThat(handed.get("code"))
        .as("member tokens are public; services accept internal ones")
        .isEqualTo("unauthenticated");

    UUID handoff = handOff(team, "lead", request, "helper", "Find the numbers", "h1");
    Map<?, ?> handoffJob = job(team, handoff);
    assertThat(handoffJob.get("kind")).isEqualTo("handoff");
    assertThat(handoffJob.get("requester")).isEqualTo("lead");
    assertThat(handoffJob.get("parent_job_id")).isEqualTo(request.toString());
    assertThat(handoffJob.get("chain_id")).isEqualTo(job(team, request).get("chain_id"));

    Map<String, Object> helperOffer = helper.nextOffer();
    helper.report(
        baseUrl(),
        handoff,
        "completed",
        TestWorker.leaseToken(helperOffer),
        Map.of("answer", "42 units"));
    lead.report(
        baseUrl(),
        request,
        "completed",
        TestWorker.leaseToken(leadOffer),
        Map.of("answer", "Report done"));

    Map<String, Object> receiptOffer = lead.nextOffer();
    assertThat(receiptOffer.get("kind")).isEqualTo("receipt");
    assertThat(receiptOffer.get("requester")).isEqualTo("helper");
    assertThat(receiptOffer.get("parent_job_id")).isEqualTo(handoff.toString());
    assertThat(receiptOffer.get("input")).isEqualTo("42 units");
    UUID receipt = TestWorker.jobId(receiptOffer);

    var result =
        web.get()
            .uri("/api/v1/teams/{team}/activity", team.id())
            .header("Authorization", owner(gina))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult();
    String etag = result.getResponseHeaders().getETag();
    List<?> items = (List<?>) result.getResponseBody().get("items");
    assertThat(items).hasSize(2);
    Map<?, ?> newest = (Map<?, ?>) items.get(0);
    Map<?, ?> handoffRequest = (Map<?, ?>) newest.get("request");
    assertThat(handoffRequest.get("id")).isEqualTo(handoff.toString());
    assertThat(((Map<?, ?>) handoffRequest.get("result")).get("answer")).isEqualTo("42 units");
    assertThat(((Map<?, ?>) newest.get("receipt")).get("id")).isEqualTo(receipt.toString());
    Map<?, ?> oldest = (Map<?, ?>) items.get(1);
    assertThat(((Map<?, ?>) ((Map<?, ?>) oldest.get("request")).get("result")).get("answer"))
        .isEqualTo("Report done");
    assertThat(oldest.get("receipt")).isNull();

    web.get()
        .uri("/api/v1/teams/{team}/activity", team.id())
        .header("Authorization", owner(gina))
        .header("If-None-Match", etag)
        .exchange()
        .expectStatus()
        .isNotModified();
    lead.report(
        baseUrl(),
        receipt,
        "completed",
        TestWorker.leaseToken(receiptOffer),
        Map.of("answer", "noted"));
    web.get()
        .uri("/api/v1/teams/{team}/activity", team.id())
        .header("Authorization", owner(gina))
        .header("If-None-Match", etag)
        .exchange()
        .expectStatus()
        .isOk();
  }

  @Test
  void aFinalAnswerIsCappedAtSixThousandBytesWithATruncationNotice() {
    String hank = unique("hank");
    String agent = unique("agent");
    Teams.Team team = teams.create(hank, Map.of("writer", agent, "other", unique("agent")));
    TestWorker worker = worker(hank, agent, 30);
    UUID job = request(team, List.of("writer"), "Write a lot").get(0);
    Map<String, Object> offer = worker.nextOffer();
    worker.report(
        baseUrl(),
        job,
        "completed",
        TestWorker.leaseToken(offer),
        Map.of("answer", "ü".repeat(4000)));

    Map<?, ?> result = (Map<?, ?>) job(team, job).get("result");
    String answer = (String) result.get("answer");
    assertThat(result.get("truncated")).isEqualTo(true);
    assertThat(answer.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(6000);
    assertThat(answer).startsWith("üüü").contains("[truncated: the original was 8000 bytes");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(events.ofType(job, "JobResultRecorded"))
                    .singleElement()
                    .satisfies(
                        e -> {
                          assertThat(e.data().get("answer_truncated").asBoolean()).isTrue();
                          assertThat(e.data().get("answer").asString()).isEqualTo(answer);
                        }));
  }

  private UUID handOff(
      Teams.Team team, String from, UUID executing, String to, String text, String key) {
    Map<?, ?> body =
        web.post()
            .uri("/api/v1/teams/{team}/requests", team.id())
            .header("Authorization", member(team, from, executing))
            .bodyValue(Map.of("recipients", List.of(to), "text", text, "idempotency_key", key))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return UUID.fromString((String) ((Map<?, ?>) ((List<?>) body.get("jobs")).get(0)).get("id"));
  }

  private Map<?, ?> post(Teams.Team team, Map<String, Object> body, int status) {
    return web.post()
        .uri("/api/v1/teams/{team}/requests", team.id())
        .header("Authorization", owner(team.ownerId()))
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private Map<?, ?> answer(Teams.Team team, UUID job, Map<String, Object> body, int status) {
    return web.post()
        .uri("/api/v1/jobs/{id}/answer", job)
        .header("Authorization", owner(team.ownerId()))
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private Map<?, ?> cancel(Teams.Team team, UUID job, int status) {
    return web.post()
        .uri("/api/v1/jobs/{id}/cancel", job)
        .header("Authorization", owner(team.ownerId()))
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private static List<Object> ids(Map<?, ?> response) {
    return ((List<?>) response.get("jobs"))
        .stream().map(job -> (Object) ((Map<?, ?>) job).get("id")).toList();
  }

  private long teamJobCount(Teams.Team team) {
    return db.sql("SELECT count(*) AS n FROM job WHERE team_id = :team")
        .bind("team", team.id())
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  private boolean slotHeldBy(UUID job) {
    return db.sql("SELECT count(*) AS n FROM admission_slot WHERE job_id = :job")
            .bind("job", job)
            .map(row -> row.get("n", Long.class))
            .one()
            .block()
        == 1;
  }
}
