package io.agentteams.taskboard.task.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** The status derivation agrees with the fixpoint model on thousands of random boards. */
class StatusDerivationPropertiesTest {

  @Property(tries = 3000)
  void derivationAgreesWithTheFixpointModel(
      @ForAll("boards") Map<TaskId, StatusDerivation.Node> board) {
    Map<TaskId, Derived> derived = StatusDerivation.derive(board);

    assertThat(derived).isEqualTo(StatusModel.derive(board));
    Statistics.label("statuses")
        .collect(derived.values().stream().map(d -> d.status()).distinct().count() >= 3);
    Statistics.label("has blocked")
        .collect(derived.values().stream().anyMatch(d -> d.status() == TaskStatus.BLOCKED));
  }

  @Property(tries = 500)
  void aTaskIsReadyExactlyWhenItIsOpenUnheldAndEveryDependencyIsCompleted(
      @ForAll("boards") Map<TaskId, StatusDerivation.Node> board) {
    Map<TaskId, Derived> derived = StatusDerivation.derive(board);
    board.forEach(
        (id, node) -> {
          boolean ready =
              node.state() == TaskState.OPEN
                  && !node.held()
                  && node.dependencies().stream()
                      .allMatch(
                          d -> board.containsKey(d) && board.get(d).state() == TaskState.COMPLETED);
          assertThat(derived.get(id).status() == TaskStatus.READY)
              .as("task %s", id)
              .isEqualTo(ready);
        });
  }

  /**
   * Random DAGs of up to 14 live tasks: a random topological order decides which edges may exist,
   * some dependencies name deleted tasks, states are mostly open.
   */
  @Provide
  Arbitrary<Map<TaskId, StatusDerivation.Node>> boards() {
    return Arbitraries.longs()
        .map(
            seed -> {
              Random random = new Random(seed);
              int size = 1 + random.nextInt(14);
              List<Integer> order = new ArrayList<>();
              for (int i = 1; i <= size; i++) {
                order.add(i);
              }
              Collections.shuffle(order, random);
              double density = random.nextDouble() * 0.5;
              Map<TaskId, StatusDerivation.Node> nodes = new HashMap<>();
              for (int position = 0; position < size; position++) {
                List<TaskId> dependencies = new ArrayList<>();
                for (int earlier = 0; earlier < position; earlier++) {
                  if (random.nextDouble() < density) {
                    dependencies.add(TaskId.of(order.get(earlier)));
                  }
                }
                if (random.nextInt(8) == 0) {
                  dependencies.add(TaskId.of(size + 1 + random.nextInt(3)));
                }
                nodes.put(
                    TaskId.of(order.get(position)),
                    new StatusDerivation.Node(
                        state(random), random.nextInt(10) == 0, dependencies));
              }
              return nodes;
            });
  }

  private static TaskState state(Random random) {
    int roll = random.nextInt(20);
    if (roll < 9) {
      return TaskState.OPEN;
    }
    if (roll < 15) {
      return TaskState.COMPLETED;
    }
    if (roll < 17) {
      return TaskState.IN_PROGRESS;
    }
    return roll < 19 ? TaskState.FAILED : TaskState.CANCELLED;
  }
}
