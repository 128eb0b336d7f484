package io.agentteams.taskboard.task.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BoardTest {

  static final Actor LEAD = new Actor.Member("lead", true);
  static final Actor ANA = new Actor.Member("ana", false);
  static final Actor BEN = new Actor.Member("ben", false);
  static final Actor OWNER = new Actor.TeamOwner("alice");
  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

  private final Board board = Board.empty(UUID.randomUUID(), "alice", Duration.ofMinutes(5));

  private Task create(Actor actor, Long... dependencies) {
    return board.create(
        actor,
        new NewTask("task", null, List.of(dependencies), List.of(), null),
        BoardModelPropertiesTest.TEAM,
        BoardModelPropertiesTest.LIMITS,
        T0);
  }

  private Task claimAndComplete(Actor actor, Task task) {
    Task claimed = board.claim(actor, task.id(), task.revision(), T0);
    return board.complete(
        actor, task.id(), claimed.revision(), "done", BoardModelPropertiesTest.LIMITS, T0);
  }

  @Test
  void completingTheLastDependencyMakesDependentsReadyAndSaysSo() {
    Task design = create(ANA);
    Task build = create(ANA, design.id().value());
    assertThat(build.status()).isEqualTo(TaskStatus.PENDING);

    claimAndComplete(BEN, design);

    Task ready = board.require(build.id());
    assertThat(ready.status()).isEqualTo(TaskStatus.READY);
    assertThat(ready.revision()).isEqualTo(build.revision() + 1);
    assertThat(board.events())
        .filteredOn(e -> e instanceof BoardEvent.Completed)
        .singleElement()
        .satisfies(
            e -> assertThat(((BoardEvent.Completed) e).nowReady()).containsExactly(build.id()));
    assertThat(board.events())
        .filteredOn(e -> e instanceof BoardEvent.BecameReady)
        .singleElement()
        .satisfies(
            e ->
                assertThat(((BoardEvent.BecameReady) e).cause())
                    .isEqualTo(new BoardEvent.Cause("completed", design.id())));
  }

  @Test
  void refusesClaimOfTaskWithUnfinishedDependencies() {
    Task first = create(ANA);
    Task second = create(ANA, first.id().value());

    assertThatThrownBy(() -> board.claim(BEN, second.id(), second.revision(), T0))
        .isInstanceOf(TaskProblem.class)
        .extracting(e -> ((TaskProblem) e).code())
        .isEqualTo("task-not-ready");
  }

  @Test
  void failingBlocksDependentsTransitivelyNamingTheReason() {
    Task a = create(ANA);
    Task b = create(ANA, a.id().value());
    Task c = create(ANA, b.id().value());
    Task claimed = board.claim(BEN, a.id(), a.revision(), T0);

    board.fail(BEN, a.id(), claimed.revision(), "no access", BoardModelPropertiesTest.LIMITS, T0);

    assertThat(board.require(b.id()).blockedReason())
        .isEqualTo(new BlockedReason(BlockedReason.Kind.DEPENDENCY_FAILED, a.id()));
    assertThat(board.require(c.id()).blockedReason())
        .isEqualTo(new BlockedReason(BlockedReason.Kind.DEPENDENCY_BLOCKED, b.id()));
    assertThat(board.require(c.id()).blockedReason().describe())
        .isEqualTo("dependency 2 is blocked");
  }

  @Test
  void refusesADependencyChangeThatWouldCloseACycleNamingIt() {
    Task a = create(LEAD);
    Task b = create(LEAD, a.id().value());
    Task c = create(LEAD, b.id().value());

    assertThatThrownBy(
            () ->
                board.update(
                    LEAD,
                    a.id(),
                    a.revision(),
                    new TaskEdit(null, null, List.of(c.id().value()), null),
                    BoardModelPropertiesTest.LIMITS,
                    T0))
        .isInstanceOf(DomainFailure.class)
        .hasMessageContaining("1 -> 3 -> 2 -> 1");
    assertThat(board.require(a.id()).dependencies()).isEmpty();
  }

  @Test
  void deletionLeavesATombstoneBlocksDependentsAndNeverFreesTheId() {
    Task a = create(LEAD);
    Task b = create(LEAD, a.id().value());

    Task tombstone = board.delete(LEAD, a.id(), a.revision(), T0);
    Task next = create(LEAD);

    assertThat(tombstone.status()).isEqualTo(TaskStatus.DELETED);
    assertThat(board.require(b.id()).blockedReason())
        .isEqualTo(new BlockedReason(BlockedReason.Kind.DEPENDENCY_MISSING, a.id()));
    assertThat(next.id()).isEqualTo(TaskId.of(3));
    assertThatThrownBy(() -> create(LEAD, a.id().value()))
        .isInstanceOf(DomainFailure.class)
        .hasMessage("dependency 1 was deleted");
    assertThatThrownBy(() -> board.claim(ANA, a.id(), tombstone.revision(), T0))
        .isInstanceOf(TaskProblem.class)
        .extracting(e -> ((TaskProblem) e).code())
        .isEqualTo("task-deleted");
  }

  @Test
  void onlyTheLeadAssignsATaskToAnotherMember() {
    Task task = create(ANA);

    assertThatThrownBy(
            () ->
                board.reassign(
                    ANA, task.id(), task.revision(), "ben", BoardModelPropertiesTest.TEAM, T0))
        .isInstanceOf(DomainFailure.class)
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("lead-only");
    Task assigned =
        board.reassign(LEAD, task.id(), task.revision(), "ben", BoardModelPropertiesTest.TEAM, T0);
    assertThat(assigned.owner()).isEqualTo("ben");
    assertThatThrownBy(() -> board.claim(ANA, task.id(), assigned.revision(), T0))
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("task-owned");
  }

  @Test
  void theOwnerOfTheTeamReadsButNeitherClaimsNorEdits() {
    Task task = create(ANA);

    assertThatThrownBy(() -> board.claim(OWNER, task.id(), task.revision(), T0))
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("members-only");
    assertThatThrownBy(() -> board.delete(OWNER, task.id(), task.revision(), T0))
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("members-only");
  }

  @Test
  void theOwnerOfTheTeamCreatesTasksAsOwnerAndMayAssignThemToAMember() {
    Task task = create(OWNER);
    assertThat(task.origin().createdBy()).isEqualTo("owner");
    assertThat(task.status()).isEqualTo(TaskStatus.READY);

    Task assigned =
        board.create(
            OWNER,
            new NewTask("for ben", null, List.of(), List.of(), "ben"),
            BoardModelPropertiesTest.TEAM,
            BoardModelPropertiesTest.LIMITS,
            T0);
    assertThat(assigned.owner()).isEqualTo("ben");
    assertThatThrownBy(
            () ->
                board.create(
                    OWNER,
                    new NewTask("for nobody", null, List.of(), List.of(), "zed"),
                    BoardModelPropertiesTest.TEAM,
                    BoardModelPropertiesTest.LIMITS,
                    T0))
        .isInstanceOf(DomainFailure.class);
  }

  @Test
  void aRecoveredClaimantCanNeitherHeartbeatNorComplete() {
    Task task = create(ANA);
    Task claimed = board.claim(BEN, task.id(), task.revision(), T0);
    Task beat = board.heartbeat(BEN, task.id(), claimed.revision(), null, T0.plusSeconds(60));

    assertThat(board.expireClaims(T0.plusSeconds(60 + 300))).isEmpty();
    List<Task> recovered = board.expireClaims(T0.plusSeconds(60 + 301));

    assertThat(recovered).extracting(Task::status).containsExactly(TaskStatus.READY);
    assertThat(recovered.get(0).owner()).isNull();
    assertThatThrownBy(() -> board.heartbeat(BEN, task.id(), beat.revision(), null, T0))
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("not-task-owner");
    assertThatThrownBy(
            () ->
                board.complete(
                    BEN,
                    task.id(),
                    recovered.get(0).revision(),
                    "late",
                    BoardModelPropertiesTest.LIMITS,
                    T0))
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("not-task-owner");
  }

  @Test
  void aStaleRevisionIsAConflictCarryingTheCurrentTask() {
    Task task = create(LEAD);
    board.update(
        LEAD,
        task.id(),
        1,
        new TaskEdit("renamed", null, null, null),
        BoardModelPropertiesTest.LIMITS,
        T0);

    assertThatThrownBy(
            () ->
                board.update(
                    LEAD,
                    task.id(),
                    1,
                    new TaskEdit("again", null, null, null),
                    BoardModelPropertiesTest.LIMITS,
                    T0))
        .isInstanceOfSatisfying(
            TaskProblem.class,
            problem -> {
              assertThat(problem.kind()).isEqualTo(DomainFailure.Kind.CONFLICT);
              assertThat(problem.current().title()).isEqualTo("renamed");
              assertThat(problem.current().revision()).isEqualTo(2);
            });
  }
}
