package io.agentteams.taskboard.plan.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.taskboard.task.domain.PlannedTask;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Plan normalisation on random plans written by a sloppy planner (mixed case, punctuation, missing
 * and repeated ids, dependencies spelled differently from the ids they mean).
 */
class PlanNormalizerPropertiesTest {

  @Property(tries = 2000)
  void keysAreUniqueLegalAndDependenciesNameKeysOfThePlan(
      @ForAll("plans") List<PlanNormalizer.Item> plan) {
    PlanNormalizer.Result result;
    try {
      result = PlanNormalizer.normalise(plan);
    } catch (DomainFailure refused) {
      Statistics.label("outcome").collect(refused.code());
      assertThat(refused.code()).isIn("dependency-cycle", "unknown-plan-dependency");
      return;
    }
    Statistics.label("outcome").collect("imported");
    Set<String> keys = new HashSet<>();
    for (PlannedTask task : result.tasks()) {
      assertThat(keys.add(task.key())).as("unique %s", task.key()).isTrue();
      assertThat(task.key()).matches("[a-z0-9]([a-z0-9_-]*[a-z0-9])?");
      assertThat(task.key()).doesNotContain("__");
      assertThat(task.key().length()).isLessThanOrEqualTo(PlanNormalizer.MAX_KEY_LENGTH);
    }
    assertThat(result.tasks()).hasSameSizeAs(plan);
    for (PlannedTask task : result.tasks()) {
      assertThat(keys).containsAll(task.dependencies());
      assertThat(new HashSet<>(task.dependencies())).hasSameSizeAs(task.dependencies());
    }
  }

  @Property(tries = 1000)
  void normalisingANormalisedPlanChangesNothing(@ForAll("plans") List<PlanNormalizer.Item> plan) {
    PlanNormalizer.Result first;
    try {
      first = PlanNormalizer.normalise(plan);
    } catch (DomainFailure refused) {
      return;
    }
    List<PlanNormalizer.Item> again = new ArrayList<>();
    for (PlannedTask task : first.tasks()) {
      again.add(
          new PlanNormalizer.Item(
              task.key(), task.title(), task.description(), task.dependencies(), List.of(), null));
    }

    PlanNormalizer.Result second = PlanNormalizer.normalise(again);

    assertThat(second.tasks()).isEqualTo(first.tasks());
    assertThat(second.renamed()).isEmpty();
    assertThat(second.generated()).isEmpty();
  }

  @Property(tries = 1000)
  void legalUniqueIdsAreKeptAsTheyAre(@ForAll("legalPlans") List<PlanNormalizer.Item> plan) {
    PlanNormalizer.Result result = PlanNormalizer.normalise(plan);

    assertThat(result.tasks().stream().map(PlannedTask::key).toList())
        .isEqualTo(plan.stream().map(PlanNormalizer.Item::id).toList());
    assertThat(result.renamed()).isEmpty();
  }

  private static final String[] STEMS = {
    "Research", "write-up", "Review!", "task 1", "TASK_1", "Ünïcode", "", " ", "a__b", "--x--"
  };

  /** Plans of up to 8 tasks; dependencies refer to earlier tasks' ids, spelled loosely. */
  @Provide
  Arbitrary<List<PlanNormalizer.Item>> plans() {
    return Arbitraries.longs()
        .map(
            seed -> {
              Random random = new Random(seed);
              int size = 1 + random.nextInt(8);
              List<String> ids = new ArrayList<>();
              List<PlanNormalizer.Item> items = new ArrayList<>();
              for (int i = 0; i < size; i++) {
                String id =
                    random.nextInt(5) == 0
                        ? null
                        : STEMS[random.nextInt(STEMS.length)]
                            + (random.nextBoolean() ? "" : random.nextInt(3));
                ids.add(id);
                List<String> dependencies = new ArrayList<>();
                for (int d = 0; d < random.nextInt(3); d++) {
                  int target = random.nextInt(size);
                  String referenced = ids.size() > target ? ids.get(target) : null;
                  if (referenced != null) {
                    dependencies.add(random.nextBoolean() ? referenced.toUpperCase() : referenced);
                  } else if (random.nextInt(4) == 0) {
                    dependencies.add("nowhere");
                  }
                }
                items.add(
                    new PlanNormalizer.Item(id, "t" + i, null, dependencies, List.of(), null));
              }
              return items;
            });
  }

  @Provide
  Arbitrary<List<PlanNormalizer.Item>> legalPlans() {
    return Arbitraries.strings()
        .withChars("abcxyz019_-")
        .ofMinLength(1)
        .ofMaxLength(12)
        .filter(PlanNormalizer::isNormalKey)
        .set()
        .ofMinSize(1)
        .ofMaxSize(8)
        .map(
            ids -> {
              List<PlanNormalizer.Item> items = new ArrayList<>();
              List<String> earlier = new ArrayList<>();
              for (String id : ids) {
                items.add(
                    new PlanNormalizer.Item(
                        id,
                        "t",
                        null,
                        earlier.isEmpty() ? List.of() : List.of(earlier.get(0)),
                        List.of(),
                        null));
                earlier.add(id);
              }
              return items;
            });
  }
}
