package io.agentteams.gateway.console.view;

import static io.agentteams.gateway.console.view.MemberStatesTest.job;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RosterRowTest {

  private static final Team TEAM =
      new Team(
          UUID.randomUUID(),
          "Team",
          "Goal",
          "ready",
          null,
          1,
          Instant.EPOCH,
          List.of(
              new Team.Member("a", "agent-a", true, "conv-a", "pull", null, "ready"),
              new Team.Member("b", "agent-b", false, "conv-b", "pull", null, "ready")));

  @Test
  void theCurrentJobIsTheOneWaitingForAnAnswerThenTheRunningOneAndTheTaskIsTheOneHeld() {
    Job running = job("a", "running", null);
    Job asking = job("a", "waiting_input", null);
    Task held = task("a", "in_progress");
    List<RosterRow> rows =
        RosterRow.of(
            TEAM,
            List.of(running, asking, job("b", "completed", Instant.EPOCH)),
            List.of(held, task("b", "ready")),
            new Workers(
                Map.of("agent-a", new WorkerStatus("agent-a", true, Instant.EPOCH, 1)), true));

    assertThat(rows.get(0).current()).isEqualTo(asking);
    assertThat(rows.get(0).task()).isEqualTo(held);
    assertThat(rows.get(0).workerState()).isEqualTo("connected");
    assertThat(rows.get(1).current()).as("nothing unfinished").isNull();
    assertThat(rows.get(1).task()).as("a ready task is nobody's yet").isNull();
    assertThat(rows.get(1).workerState()).isEqualTo("absent");
  }

  @Test
  void theRowsVersionChangesWhenItsWorkerComesOrGoesAndIsUnknownWhileTheSchedulerCannotSay() {
    List<Job> none = List.of();
    RosterRow absent = RosterRow.of(TEAM, none, List.of(), new Workers(Map.of(), true)).get(0);
    RosterRow present =
        RosterRow.of(
                TEAM,
                none,
                List.of(),
                new Workers(
                    Map.of("agent-a", new WorkerStatus("agent-a", true, Instant.EPOCH, 1)), true))
            .get(0);
    RosterRow unknown = RosterRow.of(TEAM, none, List.of(), Workers.unknown()).get(0);

    assertThat(absent.version()).isNotEqualTo(present.version());
    assertThat(absent.state()).isEqualTo(MemberState.NO_WORKER);
    assertThat(unknown.workerState()).isEqualTo("unknown");
    assertThat(unknown.state())
        .as("never claims a missing worker without knowing")
        .isEqualTo(MemberState.IDLE);
  }

  private static Task task(String owner, String status) {
    return new Task(
        1,
        "Task",
        "",
        status,
        null,
        null,
        null,
        "in_progress".equals(status) ? owner : null,
        List.of(),
        List.of(),
        null,
        0,
        Instant.EPOCH,
        null,
        0,
        null,
        null,
        null,
        null,
        owner,
        false,
        1,
        Instant.EPOCH,
        Instant.EPOCH);
  }
}
