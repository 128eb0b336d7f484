package io.agentteams.scheduler.support;

import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.test.TestClock;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.scheduler.job.application.JobCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What the scheduler's integration tests share: teams, tokens, workers, the event topic, and a
 * clean-up that cancels what a test left unfinished so the next test finds the slots free.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SchedulerIntegrationTest {

  @Autowired protected WebTestClient web;
  @Autowired protected CallerTokens tokens;
  @Autowired protected TestClock clock;
  @Autowired protected DatabaseClient db;
  @Autowired protected EventCodec codec;
  @Autowired private KafkaTemplate<Object, Object> kafka;
  @Autowired private Rosters rosters;
  @Autowired private JobCommands commands;
  @LocalServerPort protected int port;

  protected Teams teams;
  protected SchedulerEvents events;
  private final List<TestWorker> workers = new ArrayList<>();

  @BeforeAll
  void startReadingEvents() {
    // A shared, loaded machine can take longer than the client's default 5 s to answer.
    web = web.mutate().responseTimeout(Duration.ofSeconds(30)).build();
    events = new SchedulerEvents(TestInfrastructure.shared().kafkaBootstrapServers(), codec);
  }

  @AfterAll
  void stopReadingEvents() {
    events.close();
  }

  @BeforeEach
  void fixtures() {
    teams = new Teams(kafka, codec, rosters, db, commands);
  }

  @AfterEach
  void cleanUp() {
    workers.forEach(TestWorker::close);
    workers.clear();
    clock.reset();
    teams.cancelUnfinished();
  }

  protected String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  protected String owner(String ownerId) {
    return "Bearer " + tokens.issue(new Caller.Owner(ownerId), Duration.ofMinutes(5));
  }

  protected String member(Teams.Team team, String member, UUID jobId) {
    return "Bearer "
        + tokens.issue(
            new Caller.Member(team.ownerId(), team.id(), member, jobId), Duration.ofMinutes(5));
  }

  /** A member within a job under the lease of offer {@code lease}, as the gateway forwards it. */
  protected String member(Teams.Team team, String member, UUID jobId, @Nullable Integer lease) {
    return "Bearer "
        + tokens.issue(
            new Caller.Member(team.ownerId(), team.id(), member, jobId, lease),
            Duration.ofMinutes(5));
  }

  /** A worker of the agent, connected to this replica with leases of {@code leaseSeconds}. */
  protected TestWorker worker(String ownerId, String agentId, int leaseSeconds) {
    TestWorker worker = new TestWorker(tokens, ownerId, agentId).connect(baseUrl(), leaseSeconds);
    workers.add(worker);
    return worker;
  }

  /** A worker of the agent that names itself and runs at most {@code maxJobs} jobs at once. */
  protected TestWorker worker(
      String ownerId, String agentId, int leaseSeconds, String workerId, int maxJobs) {
    TestWorker worker =
        new TestWorker(tokens, ownerId, agentId)
            .connect(baseUrl(), leaseSeconds, workerId, maxJobs);
    workers.add(worker);
    return worker;
  }

  protected static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Submits an owner's request and returns the created jobs' ids. */
  protected List<UUID> request(Teams.Team team, List<String> recipients, String text) {
    Map<?, ?> body =
        web.post()
            .uri("/api/v1/teams/{team}/requests", team.id())
            .header("Authorization", owner(team.ownerId()))
            .bodyValue(Map.of("recipients", recipients, "text", text))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return ((List<?>) body.get("jobs"))
        .stream().map(job -> UUID.fromString((String) ((Map<?, ?>) job).get("id"))).toList();
  }

  /** The job as its owner sees it. */
  protected Map<?, ?> job(Teams.Team team, UUID jobId) {
    return web.get()
        .uri("/api/v1/jobs/{id}", jobId)
        .header("Authorization", owner(team.ownerId()))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  protected String state(Teams.Team team, UUID jobId) {
    return (String) job(team, jobId).get("state");
  }
}
