package io.agentteams.taskboard.task;

import static io.agentteams.taskboard.BoardFixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.taskboard.TaskClaimed;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.web.TaskView;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Claimants and editors racing on one board through the HTTP API, against real Postgres. */
@TaskBoardServiceTest
class ClaimConcurrencyIntegrationTest {

  static final int CLAIMANTS = 16;
  static final int TASKS = 200;
  static final List<String> MEMBERS =
      List.of("lead", "ana", "ben", "cy", "dee", "eli", "fay", "gus");

  @Autowired BoardFixture board;
  @Autowired MeterRegistry meters;

  @Test
  void sixteenClaimantsRacingForTwoHundredReadyTasksClaimEachExactlyOnce() throws Exception {
    Team team = board.teamWithLeadAndMembers("alice", MEMBERS.toArray(String[]::new));
    List<Long> ids = new ArrayList<>();
    for (int plan = 0; plan < 2; plan++) {
      ids.addAll(importReadyTasks(team, TASKS / 2));
    }
    assertThat(ids).hasSize(TASKS).doesNotHaveDuplicates();
    long statementsBefore = statements().count();
    long timedBefore = statementTimes().count();

    // Two sessions per member; every claimant first goes for the same ten tasks, so collisions are
    // certain, then works through the rest in its own random order, skipping tasks it saw claimed.
    Map<Long, List<String>> winners = new ConcurrentHashMap<>();
    Set<Long> seenClaimed = ConcurrentHashMap.newKeySet();
    AtomicInteger conflicts = new AtomicInteger();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(CLAIMANTS);
    List<Future<?>> claimants = new ArrayList<>();
    for (int c = 0; c < CLAIMANTS; c++) {
      String member = MEMBERS.get(c % MEMBERS.size());
      WebTestClient client = board.as(team, member);
      List<Long> order = new ArrayList<>(ids.subList(10, ids.size()));
      Collections.shuffle(order, new Random(c));
      order.addAll(0, ids.subList(0, 10));
      claimants.add(
          pool.submit(
              () -> {
                start.await();
                for (long id : order) {
                  if (seenClaimed.contains(id) && !ids.subList(0, 10).contains(id)) {
                    continue;
                  }
                  EntityExchangeResult<byte[]> result =
                      BoardFixture.transition(client, team, id, "claim", 1)
                          .expectBody()
                          .returnResult();
                  int status = result.getStatus().value();
                  if (status == 200) {
                    winners.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(member);
                  } else if (status == 409) {
                    conflicts.incrementAndGet();
                  } else {
                    unexpected.add(id + ": " + status + " " + new String(result.getResponseBody()));
                  }
                  seenClaimed.add(id);
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> claimant : claimants) {
      claimant.get(3, TimeUnit.MINUTES);
    }
    pool.shutdown();

    assertThat(unexpected).isEmpty();
    assertThat(winners.keySet()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(winners.values()).allSatisfy(w -> assertThat(w).hasSize(1));
    assertThat(conflicts.get()).isGreaterThanOrEqualTo(10 * (CLAIMANTS - 1));

    Map<Long, TaskView> stored = new HashMap<>();
    for (TaskView view : list(team)) {
      stored.put(view.id(), view);
    }
    for (long id : ids) {
      TaskView task = stored.get(id);
      assertThat(task.status()).isEqualTo("in_progress");
      assertThat(task.revision()).isEqualTo(2);
      assertThat(task.owner()).as("owner of %s", id).isEqualTo(winners.get(id).get(0));
    }
    List<TaskClaimed> claimed = board.events(team, TaskClaimed.TYPE, TaskClaimed.class);
    assertThat(claimed).hasSize(TASKS);
    Map<Long, String> claimedBy = new HashMap<>();
    claimed.forEach(e -> claimedBy.put(e.taskId(), e.member()));
    assertThat(claimedBy).hasSize(TASKS);
    claimedBy.forEach((id, member) -> assertThat(member).isEqualTo(winners.get(id).get(0)));
    long statementsRun = statements().count() - statementsBefore;
    assertThat(statementsRun).as("claim statements").isPositive();
    assertThat(statementTimes().count() - timedBefore)
        .as("each claim statement's time is recorded once")
        .isEqualTo(statementsRun);
  }

  private DistributionSummary statements() {
    return meters.get("agentteams.taskboard.claim.batch.size").summary();
  }

  private Timer statementTimes() {
    return meters.get("agentteams.taskboard.claim.statement.time").timer();
  }

  @Test
  void concurrentEditorsRetryingOnConflictsNeverLoseAnUpdate() throws Exception {
    Team team = board.teamWithLeadAndMembers("alice", MEMBERS.toArray(String[]::new));
    TaskView shared = board.create(team, "lead", "Shared notes");
    int writers = 16;
    int editsEach = 5;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    AtomicInteger conflicts = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String token = "[w" + w + "]";
      // Only the lead may edit a task it does not own, so every writer acts as the lead.
      WebTestClient lead = board.as(team, "lead");
      futures.add(
          pool.submit(
              () -> {
                start.await();
                for (int e = 0; e < editsEach; e++) {
                  TaskView current = board.read(team, "lead", shared.id());
                  while (true) {
                    var result =
                        lead.patch()
                            .uri(task(team, shared.id()))
                            .bodyValue(
                                Map.of(
                                    "expected_revision",
                                    current.revision(),
                                    "description",
                                    current.description() + token + e))
                            .exchange()
                            .expectBody(new ParameterizedTypeReference<Map<String, Object>>() {})
                            .returnResult();
                    if (result.getStatus().value() == 200) {
                      break;
                    }
                    assertThat(result.getStatus().value()).isEqualTo(409);
                    conflicts.incrementAndGet();
                    current = fromConflict(result.getResponseBody());
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> future : futures) {
      future.get(3, TimeUnit.MINUTES);
    }
    pool.shutdown();

    TaskView last = board.read(team, "ana", shared.id());
    assertThat(last.revision()).isEqualTo(1 + writers * editsEach);
    for (int w = 0; w < writers; w++) {
      for (int e = 0; e < editsEach; e++) {
        assertThat(last.description()).contains("[w" + w + "]" + e);
      }
    }
    assertThat(conflicts.get()).isPositive();
  }

  /** The current task a 409 carries, read the way a client would. */
  @SuppressWarnings("unchecked")
  private static TaskView fromConflict(Map<String, Object> problem) {
    Map<String, Object> current = (Map<String, Object>) problem.get("current");
    Function<String, Object> field = current::get;
    return new TaskView(
        ((Number) field.apply("id")).longValue(),
        (String) field.apply("title"),
        (String) field.apply("description"),
        (String) field.apply("status"),
        null,
        null,
        null,
        null,
        List.of(),
        List.of(),
        null,
        0,
        null,
        null,
        0,
        null,
        null,
        null,
        null,
        "lead",
        false,
        null,
        null,
        ((Number) field.apply("revision")).longValue(),
        java.time.Instant.EPOCH,
        java.time.Instant.EPOCH);
  }

  private List<Long> importReadyTasks(Team team, int count) {
    List<Map<String, Object>> tasks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tasks.add(Map.of("title", "Chunk " + i));
    }
    return board
        .as(team, "lead")
        .post()
        .uri("/api/v1/teams/" + team.id() + "/plans")
        .bodyValue(Map.of("tasks", tasks))
        .exchange()
        .expectStatus()
        .isCreated()
        .expectBody(io.agentteams.taskboard.plan.web.PlanController.ImportView.class)
        .returnResult()
        .getResponseBody()
        .tasks()
        .stream()
        .map(TaskView::id)
        .toList();
  }

  private List<TaskView> list(Team team) {
    return board.list(team, "lead", "");
  }
}
