package io.agentteams.taskboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.taskboard.TaskClaimed;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.TraceContext;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.taskboard.BoardFixture;
import io.agentteams.taskboard.BoardFixture.Team;
import io.agentteams.taskboard.TaskBoardServiceTest;
import io.agentteams.taskboard.task.application.TaskCommands;
import io.agentteams.taskboard.task.application.TaskOutcome;
import io.agentteams.taskboard.task.domain.TaskId;
import io.agentteams.taskboard.task.web.TaskView;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.handler.TracingObservationHandler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** Claims of one team written together in one statement each keep their own request's trace. */
@TaskBoardServiceTest
class ClaimBatchTraceIntegrationTest {

  @Autowired BoardFixture board;
  @Autowired EventCodec codec;
  @Autowired TaskCommands commands;
  @Autowired DatabaseClient db;
  @Autowired TransactionalOperator transactions;
  @Autowired MeterRegistry meters;
  @Autowired ObservationRegistry observations;

  @Test
  void claimsBatchedIntoOneStatementEachWriteTheirEventWithTheTraceOfTheirOwnRequest() {
    List<String> members = List.of("lead", "ana", "ben", "cy", "dee", "eli");
    Team team = board.teamWithLeadAndMembers("alice", members.toArray(String[]::new));
    List<TaskView> tasks = new ArrayList<>();
    for (int i = 0; i <= members.size(); i++) {
      tasks.add(board.create(team, "lead", "task " + i));
    }
    // A transaction holding the team's outbox ordering lock keeps the first claim's statement
    // waiting, so the next claims queue behind it and go together in one statement.
    Sinks.Empty<Void> release = Sinks.empty();
    AtomicBoolean held = new AtomicBoolean();
    CompletableFuture<?> holder =
        transactions
            .transactional(
                db.sql("SELECT pg_advisory_xact_lock(:namespace, hashtext(:team))")
                    .bind("namespace", Outbox.KEY_LOCK_NAMESPACE)
                    .bind("team", team.id().toString())
                    .then()
                    .then(Mono.fromRunnable(() -> held.set(true)))
                    .then(release.asMono()))
            .toFuture();
    await().untilTrue(held);
    long batchesBefore = batches().count();

    Map<Long, String> spanOfTask = new HashMap<>();
    List<CompletableFuture<TaskOutcome>> claims = new ArrayList<>();
    claims.add(claim(team, "lead", tasks.get(0), spanOfTask));
    await().until(() -> batches().count() == batchesBefore + 1);
    for (int i = 1; i < members.size(); i++) {
      claims.add(claim(team, members.get(i), tasks.get(i), spanOfTask));
    }
    await().until(() -> queued() == members.size() - 1);
    release.tryEmitEmpty();
    holder.join();
    claims.forEach(CompletableFuture::join);

    assertThat(batches().count()).isEqualTo(batchesBefore + 2);
    List<BoardFixture.Event> claimed =
        board.events(team).stream().filter(e -> e.type().equals(TaskClaimed.TYPE)).toList();
    assertThat(claimed).hasSize(members.size());
    for (BoardFixture.Event event : claimed) {
      long task = event.data(codec, TaskClaimed.class).taskId();
      TraceContext trace = event.envelope().trace();
      assertThat(trace).as("trace of task %s", task).isNotNull();
      assertThat(trace.traceId() + "-" + trace.spanId())
          .as("trace of task %s", task)
          .isEqualTo(spanOfTask.get(task));
    }
    assertThat(spanOfTask.values()).doesNotHaveDuplicates();
  }

  /** A claim made in a request of its own, whose span its event must continue. */
  private CompletableFuture<TaskOutcome> claim(
      Team team, String member, TaskView task, Map<Long, String> spanOfTask) {
    Observation request = Observation.start("claim", observations);
    spanOfTask.put(task.id(), spanOf(request));
    return commands
        .claim(
            new Caller.Member(team.ownerId(), team.id(), member, null),
            team.id(),
            TaskId.of(task.id()),
            task.revision())
        .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, request))
        .doFinally(signal -> request.stop())
        .toFuture();
  }

  private static String spanOf(Observation observation) {
    TracingObservationHandler.TracingContext tracing =
        observation.getContext().getRequired(TracingObservationHandler.TracingContext.class);
    return tracing.getSpan().context().traceId() + "-" + tracing.getSpan().context().spanId();
  }

  private DistributionSummary batches() {
    return meters.get("agentteams.taskboard.claim.batch.size").summary();
  }

  private double queued() {
    return meters.get("agentteams.taskboard.claim.queued").gauge().value();
  }
}
