package io.agentteams.taskboard.task.application;

import io.agentteams.platform.groupcommit.GroupCommit;
import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.domain.Task;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Group commit for claims, one lane per team. Every claim of a team and its event is one guarded
 * statement, and the outbox orders a team's events by committing them one at a time; so while a
 * team's claim statement runs, further claims of that team wait and then go together in the next
 * statement ({@link GroupCommit}), each event with the trace of its own claim. Nothing waits for a
 * timer: a lone claim goes at once, and the batch grows only with contention.
 *
 * <p>This is an optimisation, not coordination: who wins a task is decided by the statement's guard
 * on the row, so replicas batching their own claims side by side stay correct. Two claims of the
 * same task never share a statement (the second waits for the next one), so each attempt gets the
 * answer the guard gives it.
 */
@Component
public class ClaimBatcher {

  private final TaskStore store;
  private final Supplier<Instant> clock;
  private final GroupCommit<UUID, Claim, Task> claims;

  public ClaimBatcher(
      TaskStore store,
      BoardTransactions boards,
      TaskBoardProperties properties,
      MeterRegistry meters) {
    this.store = store;
    this.clock = boards::now;
    this.claims =
        GroupCommit.writingWith(this::write)
            .maxBatch(properties.claimBatchMax())
            .conflictKey(claim -> claim.attempt().id())
            .meters(meters, "agentteams.taskboard.claim", "Claims")
            .batchTimer(
                "agentteams.taskboard.claim.statement.time",
                "Time from sending a claim statement to its answer: a team's claims wait this long"
                    + " for each statement ahead of theirs")
            .build();
  }

  /**
   * Tries the claim, alone or with others of the same team.
   *
   * @return the claimed task, or empty when the claim's guard did not hold
   */
  public Mono<Task> claim(UUID team, String ownerId, TaskStore.ClaimAttempt attempt) {
    return claims.submit(team, new Claim(attempt, ownerId));
  }

  /** A claim waiting for its team's statement. */
  private record Claim(TaskStore.ClaimAttempt attempt, String ownerId) {}

  /** One statement for the team's batch; attempts whose guard did not hold complete empty. */
  private Mono<?> write(UUID team, GroupCommit.Batch<Claim, Task> batch) {
    Instant now = clock.get();
    List<TaskStore.ClaimAttempt> attempts = new ArrayList<>(batch.size());
    for (Claim claim : batch.requests()) {
      attempts.add(claim.attempt());
    }
    return store
        .claim(
            team,
            attempts,
            now,
            batch.request(0).ownerId(),
            a -> TaskEvents.claimed(team, a.id(), a.member(), now, a.expectedRevision() + 1),
            batch::context)
        .collectList()
        .doOnNext(
            claimed -> {
              Map<TaskId, Task> byId = new HashMap<>();
              claimed.forEach(task -> byId.put(task.id(), task));
              for (int i = 0; i < attempts.size(); i++) {
                Task task = byId.get(attempts.get(i).id());
                if (task != null) {
                  batch.succeed(i, task);
                }
              }
            });
  }
}
