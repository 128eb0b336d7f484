package io.agentteams.gateway.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class MemberStatesTest {

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
              member("a", "ready"),
              member("b", "ready"),
              member("c", "ready"),
              member("d", "failed")));

  @Test
  void aQuestionOutranksRunningWorkWhichOutranksQueuedWork() {
    var states =
        MemberStates.of(
            TEAM,
            List.of(
                job("a", "queued", null),
                job("a", "running", null),
                job("a", "waiting_input", null),
                job("b", "queued", null),
                job("b", "admitted", null),
                job("c", "queued", null)));
    assertThat(states.get("a")).isEqualTo(MemberState.WAITING_INPUT);
    assertThat(states.get("b")).isEqualTo(MemberState.RUNNING);
    assertThat(states.get("c")).isEqualTo(MemberState.QUEUED);
  }

  @Test
  void aJobNoWorkerTookShowsNoWorkerConnectedAheadOfQueuedWork() {
    var states =
        MemberStates.of(TEAM, List.of(job("a", "waiting_worker", null), job("a", "queued", null)));
    assertThat(states.get("a")).isEqualTo(MemberState.NO_WORKER);
    assertThat(states.get("a").label()).isEqualTo("no worker connected");
  }

  @Test
  void aPullMemberWhoseAgentHasNoWorkerConnectedShowsItUnlessItRunsOrAsks() {
    var states =
        MemberStates.of(
            TEAM,
            List.of(job("a", "queued", null), job("b", "running", null)),
            agent -> agent.equals("c"));
    assertThat(states.get("a")).isEqualTo(MemberState.NO_WORKER);
    assertThat(states.get("b")).as("a running job outranks it").isEqualTo(MemberState.RUNNING);
    assertThat(states.get("c")).isEqualTo(MemberState.IDLE);
    assertThat(states.get("d")).as("provisioning failed").isEqualTo(MemberState.FAILED);

    Team pushed =
        new Team(
            UUID.randomUUID(),
            "Team",
            "Goal",
            "ready",
            null,
            1,
            Instant.EPOCH,
            List.of(new Team.Member("e", "e", false, "conv-e", "webhook", null, "ready")));
    assertThat(MemberStates.of(pushed, List.of(), agent -> false).get("e"))
        .as("a pushed agent needs no worker")
        .isEqualTo(MemberState.IDLE);
  }

  @Test
  void theLastFinishedJobDecidesBetweenFailedAndIdle() {
    var states =
        MemberStates.of(
            TEAM,
            List.of(
                job("a", "completed", Instant.parse("2026-01-01T00:00:01Z")),
                job("a", "failed", Instant.parse("2026-01-01T00:00:02Z")),
                job("b", "failed", Instant.parse("2026-01-01T00:00:01Z")),
                job("b", "completed", Instant.parse("2026-01-01T00:00:02Z"))));
    assertThat(states.get("a")).isEqualTo(MemberState.FAILED);
    assertThat(states.get("b")).isEqualTo(MemberState.IDLE);
    assertThat(states.get("c")).isEqualTo(MemberState.IDLE);
    assertThat(states.get("d")).as("provisioning failed").isEqualTo(MemberState.FAILED);
  }

  private static Team.Member member(String name, String provisioning) {
    return new Team.Member(name, name, false, "conv-" + name, "pull", null, provisioning);
  }

  static Job job(String member, String state, @Nullable Instant finishedAt) {
    return new Job(
        UUID.randomUUID(),
        UUID.randomUUID(),
        member,
        member,
        "conv",
        "request",
        "owner",
        null,
        UUID.randomUUID(),
        state,
        1,
        "input",
        null,
        null,
        null,
        null,
        null,
        Instant.EPOCH,
        Instant.EPOCH,
        null,
        null,
        finishedAt);
  }
}
