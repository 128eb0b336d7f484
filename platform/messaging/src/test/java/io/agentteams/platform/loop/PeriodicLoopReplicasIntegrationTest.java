package io.agentteams.platform.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Two replicas run the same loop over one table of work; each run claims rows with {@code FOR
 * UPDATE SKIP LOCKED} in its transaction, as the services' sweepers do.
 */
@RealInfrastructure
class PeriodicLoopReplicasIntegrationTest {

  private static final int JOBS = 200;

  private PlatformFixture fixture;
  private PeriodicLoop first;
  private PeriodicLoop second;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "loops");
    fixture
        .db
        .sql("CREATE TABLE job (id int PRIMARY KEY, done_by text)")
        .then()
        .then(
            fixture.db.sql("CREATE TABLE handled (job int NOT NULL, replica text NOT NULL)").then())
        .then(fixture.db.sql("INSERT INTO job (id) SELECT generate_series(1, " + JOBS + ")").then())
        .block();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (first != null) {
      first.stop();
    }
    if (second != null) {
      second.stop();
    }
    fixture.close();
  }

  @Test
  void twoReplicasShareTheWorkEachJobOnceAndAStuckRunReleasesWhatItClaimedAtItsBound() {
    Set<Integer> claimedByTheStuckRun = ConcurrentHashMap.newKeySet();
    AtomicBoolean stuckOnce = new AtomicBoolean();
    // The first replica's first run claims its rows and then hangs; its bound cancels it, which
    // rolls its transaction back and frees the rows for whichever replica comes next.
    first =
        loop(
            "replica-1",
            claimed -> {
              if (stuckOnce.compareAndSet(false, true)) {
                claimedByTheStuckRun.addAll(claimed);
                return Mono.never();
              }
              return Mono.empty();
            });
    second = loop("replica-2", claimed -> Mono.empty());
    first.start();
    await().until(() -> claimedByTheStuckRun.size() == 10);
    second.start();

    await().atMost(Duration.ofSeconds(60)).until(() -> remaining() == 0);

    List<Map<String, Object>> handled =
        fixture.db.sql("SELECT job, replica FROM handled").fetch().all().collectList().block();
    Map<Integer, Long> timesHandled =
        handled.stream()
            .collect(Collectors.groupingBy(row -> (Integer) row.get("job"), Collectors.counting()));
    assertThat(timesHandled).hasSize(JOBS);
    assertThat(timesHandled.values()).containsOnly(1L);
    assertThat(claimedByTheStuckRun).allSatisfy(id -> assertThat(timesHandled).containsKey(id));
    assertThat(runs("replica-1", "timed-out")).isEqualTo(1);
    // The stuck run cost its replica that run only: it went on running.
    await().until(() -> runs("replica-1", "completed") > 0);
    assertThat(runs("replica-2", "completed")).isPositive();
  }

  /** A loop whose run claims up to ten jobs, records them, then does {@code beforeCommit}. */
  private PeriodicLoop loop(String replica, Function<List<Integer>, Mono<Void>> beforeCommit) {
    return new PeriodicLoops(LoopProperties.defaults(), fixture.meters)
        .named(replica)
        .every(Duration.ofMillis(20))
        .firstAfter(Duration.ZERO)
        .atMost(Duration.ofSeconds(2))
        .running(
            () ->
                fixture.transactions.transactional(
                    fixture
                        .db
                        .sql(
                            "SELECT id FROM job WHERE done_by IS NULL ORDER BY id LIMIT 10"
                                + " FOR UPDATE SKIP LOCKED")
                        .map(row -> row.get("id", Integer.class))
                        .all()
                        .collectList()
                        .filter(ids -> !ids.isEmpty())
                        .flatMap(
                            ids ->
                                fixture
                                    .db
                                    .sql(
                                        "WITH marked AS (UPDATE job SET done_by = :replica"
                                            + " WHERE id = ANY(:ids))"
                                            + " INSERT INTO handled (job, replica)"
                                            + " SELECT unnest(:ids), :replica")
                                    .bind("ids", ids.toArray(Integer[]::new))
                                    .bind("replica", replica)
                                    .then()
                                    .then(beforeCommit.apply(ids)))));
  }

  private long remaining() {
    return fixture
        .db
        .sql("SELECT count(*) AS n FROM job WHERE done_by IS NULL")
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  private long runs(String loop, String outcome) {
    return (long)
        fixture
            .meters
            .get("agentteams.loop.runs")
            .tag("loop", loop)
            .tag("outcome", outcome)
            .counter()
            .count();
  }
}
