package io.agentteams.scheduler.run.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlanTest {

  @Test
  void theFallbackGivesEveryMemberOneTaskOnTheObjective() {
    List<WrittenTask> fallback = Plan.fallback(List.of("lead", "writer"), "ship it");

    assertThat(fallback)
        .extracting(WrittenTask::id, WrittenTask::assignee, WrittenTask::dependencies)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("lead", "lead", List.of()),
            org.assertj.core.groups.Tuple.tuple("writer", "writer", List.of()));
    assertThat(fallback).allSatisfy(t -> assertThat(t.instruction()).contains("ship it"));
  }

  static PlanTask task(String key, String assignee, String... dependencies) {
    return new PlanTask(key, assignee, key, "do " + key, List.of(dependencies));
  }
}
