package io.agentteams.taskboard.plan.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.taskboard.task.domain.PlannedTask;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanNormalizerTest {

  private static PlanNormalizer.Item item(String id, String... dependencies) {
    return new PlanNormalizer.Item(id, "title", null, List.of(dependencies), List.of(), null);
  }

  @Test
  void lowercasesReplacesIllegalCharactersAndCollapsesUnderscores() {
    assertThat(PlanNormalizer.normaliseKey("Write Report: Draft #2"))
        .isEqualTo("write_report_draft_2");
    assertThat(PlanNormalizer.normaliseKey("__a!!b--")).isEqualTo("a_b");
    assertThat(PlanNormalizer.normaliseKey("!!!")).isNull();
    assertThat(PlanNormalizer.normaliseKey("x".repeat(100))).hasSize(PlanNormalizer.MAX_KEY_LENGTH);
  }

  @Test
  void generatesMissingIdsFromThePositionAvoidingTakenOnes() {
    PlanNormalizer.Result result =
        PlanNormalizer.normalise(List.of(item(null), item("task_1"), item("  ")));

    assertThat(result.tasks())
        .extracting(PlannedTask::key)
        .containsExactly("task_1_2", "task_1", "task_3");
    assertThat(result.generated()).containsExactly("task_1_2", "task_3");
  }

  @Test
  void renamesDuplicatesAndKeepsReferencesOnTheFirst() {
    PlanNormalizer.Result result =
        PlanNormalizer.normalise(
            List.of(item("Draft"), item("draft"), item("Review", "DRAFT", "draft_2")));

    assertThat(result.tasks())
        .extracting(PlannedTask::key)
        .containsExactly("draft", "draft_2", "review");
    assertThat(result.tasks().get(2).dependencies()).containsExactly("draft", "draft_2");
    assertThat(result.renamed())
        .containsExactly(
            new PlanNormalizer.Rename("Draft", "draft", PlanNormalizer.Reason.NORMALISED),
            new PlanNormalizer.Rename("draft", "draft_2", PlanNormalizer.Reason.DUPLICATE),
            new PlanNormalizer.Rename("Review", "review", PlanNormalizer.Reason.NORMALISED));
  }

  @Test
  void refusesADependencyThatNamesNoTaskOfThePlan() {
    assertThatThrownBy(() -> PlanNormalizer.normalise(List.of(item("a", "ghost"))))
        .isInstanceOf(DomainFailure.class)
        .hasMessageContaining("'a' depends on 'ghost'");
  }

  @Test
  void refusesACycleNamingIt() {
    assertThatThrownBy(
            () -> PlanNormalizer.normalise(List.of(item("a", "c"), item("b", "a"), item("c", "b"))))
        .isInstanceOf(DomainFailure.class)
        .satisfies(
            e -> {
              DomainFailure problem = (DomainFailure) e;
              assertThat(problem.code()).isEqualTo("dependency-cycle");
              assertThat(problem.detail()).contains("a -> c -> b -> a");
              assertThat(problem.parameters().get("cycle")).isEqualTo(List.of("a", "c", "b", "a"));
            });
  }
}
