package io.agentteams.scheduler.run.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanTest {

  private static final Set<String> MEMBERS = Set.of("lead", "writer");

  @Test
  void refusesAnAssigneeWhoIsNotAMemberNamingThem() {
    assertThatThrownBy(() -> Plan.of(List.of(task("a", "ghost")), MEMBERS, 10))
        .isInstanceOf(InvalidPlan.class)
        .hasMessage(
            "task 'a' is assigned to 'ghost', who is not a member of the team (members: lead,"
                + " writer)");
  }

  @Test
  void refusesACycleNamingIt() {
    assertThatThrownBy(
            () ->
                Plan.of(
                    List.of(task("a", "lead", "c"), task("b", "lead", "a"), task("c", "lead", "b")),
                    MEMBERS,
                    10))
        .hasMessageStartingWith("the plan's dependencies form a cycle: ")
        .hasMessageContainingAll("a", "b", "c");
  }

  @Test
  void refusesMissingDependenciesDuplicatesSelfDependenciesAndTooManyTasks() {
    assertThatThrownBy(() -> Plan.of(List.of(task("a", "lead", "z")), MEMBERS, 10))
        .hasMessage("task 'a' depends on 'z', which the plan lacks");
    assertThatThrownBy(() -> Plan.of(List.of(task("a", "lead"), task("a", "writer")), MEMBERS, 10))
        .hasMessage("task id 'a' is used twice");
    assertThatThrownBy(() -> Plan.of(List.of(task("a", "lead", "a")), MEMBERS, 10))
        .hasMessage("task 'a' depends on itself");
    assertThatThrownBy(() -> Plan.of(List.of(task("a", "lead"), task("b", "lead")), MEMBERS, 1))
        .hasMessage("the plan has 2 tasks; a run follows at most 1");
    assertThatThrownBy(() -> Plan.of(List.of(), MEMBERS, 1)).hasMessage("the plan has no task");
  }

  @Test
  void acceptsADagAndTheFallbackGivesEveryMemberOneTask() {
    Plan plan =
        Plan.of(
            List.of(task("a", "lead"), task("b", "writer", "a"), task("c", "lead", "a", "b")),
            MEMBERS,
            10);
    assertThat(plan.keys()).containsExactlyInAnyOrder("a", "b", "c");

    Plan fallback = Plan.fallback(List.of("lead", "writer"), "ship it");
    assertThat(fallback.tasks())
        .extracting(PlanTask::assignee, PlanTask::dependencies)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("lead", List.of()),
            org.assertj.core.groups.Tuple.tuple("writer", List.of()));
    assertThat(fallback.tasks()).allSatisfy(t -> assertThat(t.instruction()).contains("ship it"));
  }

  static PlanTask task(String key, String assignee, String... dependencies) {
    return new PlanTask(key, assignee, key, "do " + key, List.of(dependencies));
  }
}
