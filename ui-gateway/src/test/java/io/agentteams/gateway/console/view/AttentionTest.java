package io.agentteams.gateway.console.view;

import static io.agentteams.gateway.console.view.MemberStatesTest.job;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class AttentionTest {

  private static final Team TEAM =
      new Team(UUID.randomUUID(), "Team", "Goal", "ready", null, 1, Instant.EPOCH, List.of());

  @Test
  void countsQuestionsRunningJobsBlockedAndFailedTasksAndListsQuestionsFirst() {
    Attention attention =
        Attention.of(
            TEAM,
            List.of(
                job("a", "waiting_input", null),
                job("b", "running", null),
                job("b", "admitted", null),
                job("c", "queued", null)),
            List.of(
                task(1, "blocked", false),
                task(2, "failed", false),
                task(3, "ready", false),
                task(4, "blocked", true)));

    assertThat(attention.running()).isEqualTo(2);
    assertThat(attention.waiting()).isEqualTo(1);
    assertThat(attention.blocked()).as("a deleted task counts for nothing").isEqualTo(1);
    assertThat(attention.failed()).isEqualTo(1);
    assertThat(attention.needsYou()).isEqualTo(3);
    assertThat(attention.items())
        .extracting(Attention.Item::kind)
        .containsExactly(
            Attention.Kind.QUESTION, Attention.Kind.BLOCKED_TASK, Attention.Kind.FAILED_TASK);
  }

  @Test
  void aFailedJobNeedsTheOwnerOnlyWhileItIsItsMembersLatestFinishedJob() {
    Attention attention =
        Attention.of(
            TEAM,
            List.of(
                job("a", "failed", at(1)),
                job("a", "completed", at(2)),
                job("b", "completed", at(1)),
                job("b", "failed", at(2))),
            List.of());

    assertThat(attention.failed()).isEqualTo(1);
    assertThat(attention.items())
        .singleElement()
        .satisfies(
            item -> {
              assertThat(item.kind()).isEqualTo(Attention.Kind.FAILED_JOB);
              assertThat(item.member()).isEqualTo("b");
            });
  }

  @Test
  void nothingNeedsTheOwnerOfAQuietTeam() {
    Attention attention =
        Attention.of(TEAM, List.of(job("a", "completed", at(1))), List.of(task(1, "ready", false)));
    assertThat(attention.needsYou()).isZero();
    assertThat(attention.items()).isEmpty();
  }

  private static Instant at(int second) {
    return Instant.EPOCH.plusSeconds(second);
  }

  private static Task task(long id, String status, boolean deleted) {
    @Nullable String reason = "blocked".equals(status) ? "dependency_failed" : null;
    return new Task(
        id,
        "Task " + id,
        "",
        status,
        reason,
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
        "failed".equals(status) ? "it broke" : null,
        null,
        null,
        "lead",
        deleted,
        1,
        Instant.EPOCH,
        Instant.EPOCH.plusSeconds(id));
  }
}
