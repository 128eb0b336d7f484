package io.agentteams.scheduler.job.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Lead controls: the team's lead (or its owner) interrupts a member's running job, which ends
 * {@code interrupted} with its worker told on its stream; {@code if_busy: interrupt} does the same
 * for a request and runs the request next.
 */
@SchedulerServiceTest
class InterruptIntegrationTest extends SchedulerIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void theLeadInterruptsAMembersRunningJobItsWorkerIsToldAndTheConversationRunsTheNextRequest() {
    String olga = unique("olga");
    String agent = unique("agent");
    Teams.Team team =
        teams.create(
            olga, Map.of("lead", unique("agent"), "one", agent, "other", unique("agent")), "lead");
    Teams.Team elsewhere =
        teams.create(olga, Map.of("lead", unique("agent"), "two", unique("agent")), "lead");
    TestWorker worker = worker(olga, agent, 30);
    UUID running = request(team, List.of("one"), "Write the long report").get(0);
    Map<String, Object> offer = worker.nextOffer();
    String lease = TestWorker.leaseToken(offer);
    assertThat(worker.report(baseUrl(), running, "started", lease, Map.of()).status())
        .isEqualTo(200);

    // A member that does not lead the team is refused before anything is read or changed.
    Map<?, ?> notLead = interrupt(team, running, member(team, "other", null), 403);
    assertThat(notLead.get("code")).isEqualTo("not-lead");
    assertThat(notLead.get("member")).isEqualTo("other");
    // Another team's lead, or this team's lead naming the job under another team: not found.
    interrupt(team, running, member(elsewhere, "lead", null), 404);
    interrupt(elsewhere, running, member(elsewhere, "lead", null), 404);
    interrupt(team, running, owner(unique("mallory")), 404);
    assertThat(state(team, running)).isEqualTo("running");
    assertThat(worker.interrupts()).isEmpty();

    Map<?, ?> interrupted = interrupt(team, running, member(team, "lead", null), 200);
    assertThat(interrupted.get("state")).isEqualTo("interrupted");
    assertThat(((Map<?, ?>) interrupted.get("result")).get("error"))
        .isEqualTo("interrupted by the lead lead");
    await().atMost(PATIENCE).until(() -> worker.interrupts().contains(running));
    // A retry changes nothing; the worker's late report is refused like any on an ended job.
    Map<?, ?> retried = interrupt(team, running, member(team, "lead", null), 200);
    assertThat(retried.get("revision")).isEqualTo(interrupted.get("revision"));
    TestWorker.Reply late =
        worker.report(baseUrl(), running, "completed", lease, Map.of("answer", "too late"));
    assertThat(late.status()).isEqualTo(409);
    assertThat(late.code()).isEqualTo("job-finished");
    assertThat(late.body().get("state")).isEqualTo("interrupted");
    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(events.states(running)).endsWith("running", "interrupted"));
    assertThat(slotHeldBy(running)).as("its slot is released").isFalse();

    // The conversation is free: the member's next request runs at once; one queued behind it has
    // no turn under way and cannot be interrupted (409 naming its state).
    UUID next = request(team, List.of("one"), "Now the short one").get(0);
    assertThat(TestWorker.jobId(worker.nextOffer())).isEqualTo(next);
    UUID queued = request(team, List.of("one"), "And then this").get(0);
    Map<?, ?> notRunning = interrupt(team, queued, owner(olga), 409);
    assertThat(notRunning.get("code")).isEqualTo("job-state-conflict");
    assertThat(notRunning.get("state")).isEqualTo("queued");
    // The owner may interrupt too (as it may cancel).
    assertThat(interrupt(team, next, owner(olga), 200).get("state")).isEqualTo("interrupted");
  }

  @Test
  void ifBusyInterruptStopsTheRunningJobAndRunsTheRequestNextAndOnlyTheLeadMayAskIt() {
    String pia = unique("pia");
    String agent = unique("agent");
    Teams.Team team =
        teams.create(
            pia, Map.of("lead", unique("agent"), "one", agent, "other", unique("agent")), "lead");
    TestWorker worker = worker(pia, agent, 30);
    UUID running = request(team, List.of("one"), "First").get(0);
    String lease = TestWorker.leaseToken(worker.nextOffer());
    worker.report(baseUrl(), running, "started", lease, Map.of());

    Map<?, ?> refused = send(team, member(team, "other", null), "Drop that", "interrupt", 403);
    assertThat(refused.get("code")).isEqualTo("not-lead");
    assertThat(teamJobCount(team)).as("nothing written").isEqualTo(1);
    assertThat(state(team, running)).isEqualTo("running");

    Map<?, ?> sent = send(team, member(team, "lead", null), "Drop that, do this", "interrupt", 201);
    UUID replacement = jobIds(sent).get(0);
    assertThat(state(team, running)).isEqualTo("interrupted");
    assertThat(((Map<?, ?>) job(team, running).get("result")).get("error"))
        .isEqualTo("interrupted by the lead lead for job " + replacement);
    await().atMost(PATIENCE).until(() -> worker.interrupts().contains(running));
    assertThat(TestWorker.jobId(worker.nextOffer())).isEqualTo(replacement);

    // reject and enqueue behave as before while the replacement holds the conversation.
    Map<?, ?> busy = send(team, owner(pia), "Not now", "reject", 409);
    assertThat(busy.get("code")).isEqualTo("conversation-busy");
    assertThat(busy.get("job_id")).isEqualTo(replacement.toString());
    UUID behind = jobIds(send(team, owner(pia), "After it", "enqueue", 201)).get(0);
    assertThat(state(team, behind)).isEqualTo("queued");
    assertThat(state(team, replacement)).isNotEqualTo("interrupted");
  }

  @Test
  void aJobNoRuntimeHasTakenCannotBeInterruptedOnlyCancelled() {
    String sven = unique("sven");
    Teams.Team team = teams.create(sven, Map.of("lead", unique("agent"), "one", unique("agent")));
    UUID untaken = request(team, List.of("one"), "Nobody is listening").get(0);
    await().atMost(PATIENCE).until(() -> !"queued".equals(state(team, untaken)));
    String before = state(team, untaken);

    Map<?, ?> refused = interrupt(team, untaken, owner(sven), 409);

    assertThat(refused.get("code")).isEqualTo("job-state-conflict");
    assertThat(refused.get("state")).isEqualTo(before).isIn("admitted", "waiting_worker");
    assertThat(state(team, untaken)).isEqualTo(before);
  }

  @Test
  void anInterruptingRequestRunsNextAheadOfRequestsQueuedEarlierInTheConversation() {
    String rhea = unique("rhea");
    String agent = unique("agent");
    Teams.Team team = teams.create(rhea, Map.of("one", agent, "two", unique("agent")));
    TestWorker worker = worker(rhea, agent, 30);
    UUID running = request(team, List.of("one"), "First").get(0);
    String lease = TestWorker.leaseToken(worker.nextOffer());
    worker.report(baseUrl(), running, "started", lease, Map.of());
    UUID queued = jobIds(send(team, owner(rhea), "Queued behind it", "enqueue", 201)).get(0);

    UUID urgent = jobIds(send(team, owner(rhea), "Drop everything", "interrupt", 201)).get(0);

    assertThat(state(team, running)).isEqualTo("interrupted");
    Map<String, Object> offer = worker.nextOffer();
    assertThat(TestWorker.jobId(offer)).as("the interrupting request runs next").isEqualTo(urgent);
    assertThat(state(team, queued)).isEqualTo("queued");
    worker.report(baseUrl(), urgent, "started", TestWorker.leaseToken(offer), Map.of());
    worker.report(
        baseUrl(), urgent, "completed", TestWorker.leaseToken(offer), Map.of("answer", "done"));
    assertThat(TestWorker.jobId(worker.nextOffer()))
        .as("the request queued earlier runs after it")
        .isEqualTo(queued);
  }

  @Test
  void twoConcurrentInterruptingRequestsInterruptOnceAndTheSecondQueuesBehindTheFirst()
      throws Exception {
    String quin = unique("quin");
    String agent = unique("agent");
    Teams.Team team = teams.create(quin, Map.of("one", agent, "two", unique("agent")));
    TestWorker worker = worker(quin, agent, 30);
    UUID running = request(team, List.of("one"), "First").get(0);
    String lease = TestWorker.leaseToken(worker.nextOffer());
    worker.report(baseUrl(), running, "started", lease, Map.of());

    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Map<?, ?>>> sends =
        List.of("A", "B").stream()
            .map(
                text ->
                    CompletableFuture.<Map<?, ?>>supplyAsync(
                        () -> {
                          try {
                            go.await();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          return send(team, owner(quin), text, "interrupt", 201);
                        }))
            .toList();
    go.countDown();
    List<UUID> created =
        sends.stream()
            .map(f -> f.orTimeout(PATIENCE.toSeconds(), TimeUnit.SECONDS).join())
            .map(body -> jobIds(body).get(0))
            .toList();
    List<UUID> inOrder = bySeq(created);
    UUID first = inOrder.get(0);
    UUID second = inOrder.get(1);

    assertThat(state(team, running)).isEqualTo("interrupted");
    // The second found the first at the head, not yet started: it queued behind it rather than
    // cutting it off, so exactly one runs next.
    assertThat(state(team, second)).isEqualTo("queued");
    Map<String, Object> offer = worker.nextOffer();
    assertThat(TestWorker.jobId(offer)).isEqualTo(first);
    worker.report(baseUrl(), first, "started", TestWorker.leaseToken(offer), Map.of());
    assertThat(worker.pollOffer()).as("the second waits for the first").isEmpty();
    worker.report(
        baseUrl(), first, "completed", TestWorker.leaseToken(offer), Map.of("answer", "done"));
    assertThat(TestWorker.jobId(worker.nextOffer())).isEqualTo(second);
    assertThat(state(team, first)).isEqualTo("completed");
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> assertThat(events.states(running)).filteredOn("interrupted"::equals).hasSize(1));
  }

  private Map<?, ?> interrupt(Teams.Team team, UUID job, String authorization, int status) {
    return web.post()
        .uri("/api/v1/teams/{team}/jobs/{job}/interrupt", team.id(), job)
        .header("Authorization", authorization)
        .exchange()
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private Map<?, ?> send(
      Teams.Team team, String authorization, String text, @Nullable String ifBusy, int status) {
    Map<String, Object> body =
        ifBusy == null
            ? Map.of("recipients", List.of("one"), "text", text)
            : Map.of("recipients", List.of("one"), "text", text, "if_busy", ifBusy);
    WebTestClient.ResponseSpec response =
        web.post()
            .uri("/api/v1/teams/{team}/requests", team.id())
            .header("Authorization", authorization)
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue(body)
            .exchange();
    return response
        .expectStatus()
        .isEqualTo(status)
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private static List<UUID> jobIds(Map<?, ?> body) {
    return ((List<?>) body.get("jobs"))
        .stream().map(job -> UUID.fromString((String) ((Map<?, ?>) job).get("id"))).toList();
  }

  private List<UUID> bySeq(List<UUID> jobs) {
    return db.sql("SELECT id FROM job WHERE id = ANY(:ids) ORDER BY seq")
        .bind("ids", jobs.toArray(UUID[]::new))
        .map(row -> row.get("id", UUID.class))
        .all()
        .collectList()
        .block();
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
