package io.agentteams.scheduler.run.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Whatever the plan's dependencies, concurrency, rounds and the order and outcome of its jobs, a
 * run dispatches each task at most once, only after its dependencies completed, never more at once
 * than its concurrency, and always ends: it never waits for a job it did not order.
 */
class RunPropertiesTest {

  private static final List<String> MEMBERS = List.of("lead", "a", "b");
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  @Property(tries = 400)
  void everyRunDispatchesEachTaskOnceInDependencyOrderWithinItsConcurrencyAndEnds(
      @ForAll @IntRange(min = 1, max = 10) int size,
      @ForAll @IntRange(min = 1, max = 4) int concurrency,
      @ForAll @IntRange(min = 1, max = 12) int maxRounds,
      @ForAll boolean continueOnError,
      @ForAll long seed) {
    Random random = new Random(seed);
    List<PlanTask> tasks = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      List<String> dependencies = new ArrayList<>();
      for (int j = 0; j < i; j++) {
        if (random.nextInt(3) == 0) {
          dependencies.add("t" + j);
        }
      }
      tasks.add(
          new PlanTask("t" + i, MEMBERS.get(random.nextInt(3)), "t" + i, "do t" + i, dependencies));
    }
    Map<String, PlanTask> byKey = new HashMap<>();
    tasks.forEach(t -> byKey.put(t.key(), t));
    Run run =
        Run.start(
            UUID.randomUUID(),
            UUID.randomUUID(),
            "owner",
            "objective",
            new RunOptions(
                "lead",
                "lead",
                maxRounds,
                concurrency,
                continueOnError,
                false,
                RunOptions.UnreadablePlan.FAIL),
            NOW);
    List<JobOrder> outstanding = new ArrayList<>();
    run.submitted(tasks.size(), false, NOW);
    outstanding.addAll(run.planned(new Plan(tasks), MEMBERS, NOW));
    Set<String> dispatched = new HashSet<>();
    Set<String> completed = new HashSet<>();
    int synthesis = 0;
    int steps = 0;
    while (!outstanding.isEmpty()) {
      assertThat(steps++).as("the run ends").isLessThan(10 * size + 10);
      assertThat(outstanding.stream().filter(o -> o.role() == JobOrder.Role.TASK).count())
          .isLessThanOrEqualTo(concurrency);
      for (JobOrder order : outstanding) {
        if (order.role() == JobOrder.Role.TASK) {
          assertThat(dispatched.add(order.taskKey())).as("dispatched once").isTrue();
          assertThat(completed).containsAll(byKey.get(order.taskKey()).dependencies());
        } else {
          synthesis++;
        }
        run.dispatched(order, UUID.randomUUID(), NOW);
      }
      // The jobs end in any order, some failing.
      List<JobOrder> ending = new ArrayList<>(outstanding);
      java.util.Collections.shuffle(ending, random);
      outstanding.clear();
      for (JobOrder order : ending) {
        boolean ok = random.nextInt(5) != 0;
        if (order.role() == JobOrder.Role.SYNTHESIS) {
          run.synthesised(ok, ok ? "result" : "synthesis broke", NOW);
          continue;
        }
        if (ok) {
          completed.add(order.taskKey());
        }
        outstanding.addAll(run.taskEnded(order.taskKey(), ok, ok ? "done" : "broke", MEMBERS, NOW));
      }
    }

    assertThat(run.state().finished()).as("the run ended").isTrue();
    assertThat(synthesis).isLessThanOrEqualTo(1);
    if (run.state() == RunState.COMPLETED) {
      assertThat(run.tasks()).allSatisfy(t -> assertThat(t.state().settled()).isTrue());
    }
    assertThat(run.round()).isLessThanOrEqualTo(maxRounds);
  }
}
