package io.agentteams.scheduler.presence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.scheduler.WorkerPresenceChanged;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.presence.application.Presences;
import io.agentteams.scheduler.presence.persistence.PresenceStore;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Worker presence: an agent with no worker is not connected; a worker holding its job stream makes
 * it connected (to its owner only); the stream closing makes it not connected again; presence left
 * by a replica that died lapses after presence-ttl and is swept. Each change is announced to the
 * teams the agent serves.
 */
@SchedulerServiceTest
class PresenceIntegrationTest extends SchedulerIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Autowired private PresenceStore store;
  @Autowired private Presences presences;
  @Autowired private MeterRegistry meters;

  @Test
  void aWorkerHoldingItsStreamIsConnectedUntilTheStreamCloses() {
    String rita = unique("rita");
    String agent = unique("agent");
    assertThat(worker(rita, agent).get("connected")).isEqualTo(false);
    assertThat(workers(rita)).isEmpty();

    TestWorker first = worker(rita, agent, 30);
    Map<?, ?> connected = worker(rita, agent);
    assertThat(connected.get("connected")).isEqualTo(true);
    assertThat(connected.get("streams")).isEqualTo(1);
    assertThat(connected.get("since")).isNotNull();
    assertThat(workers(rita).stream().<Object>map(w -> w.get("agent_id")).toList())
        .containsExactly(agent);
    assertThat(worker(unique("mallory"), agent).get("connected"))
        .as("another owner's agent of the same id")
        .isEqualTo(false);
    TestWorker second = worker(rita, agent, 30);
    assertThat(worker(rita, agent).get("streams")).isEqualTo(2);
    await().atMost(PATIENCE).until(() -> meters.get(Presences.CONNECTED).gauge().value() >= 1);

    first.disconnect();
    await()
        .atMost(PATIENCE)
        .until(() -> Integer.valueOf(1).equals(worker(rita, agent).get("streams")));
    second.disconnect();
    await()
        .atMost(PATIENCE)
        .until(() -> Boolean.FALSE.equals(worker(rita, agent).get("connected")));
    assertThat(workers(rita)).isEmpty();
  }

  @Test
  void presenceLeftByAReplicaThatDiedLapsesAfterItsTtlAndIsSwept() {
    String sven = unique("sven");
    String agent = unique("agent");
    UUID stream = UUID.randomUUID();
    Instant now = clock.instant();
    // A stream held by a replica that was killed: nobody renews or deletes its row.
    store
        .open(stream, sven, agent, "worker-1", "replica-gone", now, now.plusSeconds(30))
        .block(PATIENCE);
    assertThat(worker(sven, agent).get("connected")).isEqualTo(true);

    clock.advance(Duration.ofSeconds(31));
    assertThat(worker(sven, agent).get("connected")).isEqualTo(false);
    presences.upkeep().block(PATIENCE);
    assertThat(
            db.sql("SELECT count(*) AS n FROM worker_presence WHERE stream_id = :id")
                .bind("id", stream)
                .map(row -> row.get("n", Long.class))
                .one()
                .block())
        .as("swept")
        .isZero();
  }

  @Test
  void aWorkerComingAndGoingIsAnnouncedToEveryTeamWithAMemberBoundToItsAgent() {
    String tess = unique("tess");
    String agent = unique("agent");
    Teams.Team both = teams.create(tess, Map.of("analyst", agent, "checker", agent, "lead", "x"));
    Teams.Team other = teams.create(tess, Map.of("lead", unique("other")));

    TestWorker worker = worker(tess, agent, 30);
    EventEnvelope connected = presenceOf(both.id(), true);
    assertThat(codec.data(connected, WorkerPresenceChanged.class))
        .isEqualTo(
            new WorkerPresenceChanged(
                both.id().toString(), agent, List.of("analyst", "checker"), true, 1));
    assertThat(connected.ownerId()).isEqualTo(tess);

    worker.disconnect();
    EventEnvelope gone = presenceOf(both.id(), false);
    assertThat(codec.data(gone, WorkerPresenceChanged.class).streams()).isZero();
    assertThat(
            events.all().stream()
                .filter(e -> WorkerPresenceChanged.TYPE.equals(e.type()))
                .filter(e -> e.teamId().equals(other.id().toString())))
        .as("a team without the agent hears nothing")
        .isEmpty();
  }

  private EventEnvelope presenceOf(UUID teamId, boolean connected) {
    return await()
        .atMost(PATIENCE)
        .until(
            () ->
                events.all().stream()
                    .filter(e -> WorkerPresenceChanged.TYPE.equals(e.type()))
                    .filter(e -> e.teamId().equals(teamId.toString()))
                    .filter(e -> e.data().path("connected").asBoolean() == connected)
                    .findFirst()
                    .orElse(null),
            found -> found != null);
  }

  private Map<?, ?> worker(String ownerId, String agentId) {
    return web.get()
        .uri("/api/v1/agents/{agent}/worker", agentId)
        .header("Authorization", owner(ownerId))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private List<Map<?, ?>> workers(String ownerId) {
    Map<?, ?> body =
        web.get()
            .uri("/api/v1/workers")
            .header("Authorization", owner(ownerId))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    return ((List<?>) body.get("workers")).stream().<Map<?, ?>>map(w -> (Map<?, ?>) w).toList();
  }
}
