package io.agentteams.scheduler.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import io.agentteams.scheduler.support.TestWorker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Max-min fair admission through the database-backed loop: a freed slot goes to the owner holding
 * fewest slots, not to the owner already holding most whose queued job is older.
 */
@SchedulerServiceTest
class FairAdmissionIntegrationTest extends SchedulerIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void aFreedSlotGoesToTheOwnerWithFewerRunningJobs() {
    int capacity = capacity();
    String ada = unique("ada");
    String adaAgent = unique("agent");
    Map<String, String> members = new LinkedHashMap<>();
    for (int i = 0; i < capacity + 2; i++) {
      members.put("m" + i, adaAgent);
    }
    Teams.Team adas = teams.create(ada, members);
    TestWorker adaWorker = worker(ada, adaAgent, 60);
    List<UUID> adaJobs = request(adas, List.copyOf(members.keySet()), "Fill every slot");
    await().atMost(PATIENCE).until(() -> slotsHeldBy(ada) == capacity);
    for (int i = 0; i < capacity; i++) {
      adaWorker.nextOffer();
    }

    String ben = unique("ben");
    String benAgent = unique("agent");
    Teams.Team bens = teams.create(ben, Map.of("solo", benAgent));
    TestWorker benWorker = worker(ben, benAgent, 60);
    UUID benJob = request(bens, List.of("solo"), "My turn?").get(0);
    List<UUID> adaQueued =
        adaJobs.stream().filter(job -> "queued".equals(state(adas, job))).toList();
    assertThat(adaQueued).as("Ada's older jobs wait too").hasSize(2);
    assertThat(state(bens, benJob)).isEqualTo("queued");

    UUID adaRunning =
        adaJobs.stream().filter(job -> !adaQueued.contains(job)).findFirst().orElseThrow();
    web.post()
        .uri("/api/v1/jobs/{job}/cancel", adaRunning)
        .header("Authorization", owner(ada))
        .exchange()
        .expectStatus()
        .isOk();

    assertThat(TestWorker.jobId(benWorker.nextOffer()))
        .as("Ben holds no slot, Ada holds the rest: the freed slot is Ben's")
        .isEqualTo(benJob);
    assertThat(adaQueued).allSatisfy(job -> assertThat(state(adas, job)).isEqualTo("queued"));
    assertThat(slotsHeldBy(ada)).isEqualTo(capacity - 1);
  }

  private int capacity() {
    return db.sql("SELECT capacity FROM admission_control WHERE id = 1")
        .map(row -> row.get("capacity", Integer.class))
        .one()
        .block();
  }

  private long slotsHeldBy(String owner) {
    return db.sql(
            "SELECT count(*) AS n FROM admission_slot s JOIN job j ON j.id = s.job_id"
                + " WHERE j.owner_id = :owner")
        .bind("owner", owner)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }
}
