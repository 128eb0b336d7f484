package io.agentteams.taskboard.task.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsCoverage;

/**
 * The cycle check agrees with a transitive-closure model (Floyd–Warshall) on thousands of random
 * directed graphs, and every cycle it names is a real one.
 */
class DependencyCyclesPropertiesTest {

  @Property(tries = 4000)
  void findsACycleExactlyWhenTheTransitiveClosureHasOne(
      @ForAll("graphs") Map<Integer, List<Integer>> graph) {
    boolean cyclic = closureHasCycle(graph);

    Optional<List<Integer>> found = DependencyCycles.find(graph);

    assertThat(found.isPresent()).isEqualTo(cyclic);
    found.ifPresent(
        cycle -> {
          assertThat(cycle.size()).isGreaterThanOrEqualTo(2);
          assertThat(cycle.get(0)).isEqualTo(cycle.get(cycle.size() - 1));
          for (int i = 0; i + 1 < cycle.size(); i++) {
            assertThat(graph.getOrDefault(cycle.get(i), List.of()))
                .as("edge %s -> %s", cycle.get(i), cycle.get(i + 1))
                .contains(cycle.get(i + 1));
          }
          List<Integer> interior = cycle.subList(0, cycle.size() - 1);
          assertThat(new HashSet<>(interior)).hasSize(interior.size());
        });
    Statistics.label("cyclic").collect(cyclic);
    Statistics.label("cyclic")
        .coverage(
            (StatisticsCoverage coverage) -> {
              coverage.check(true).percentage(p -> p > 15);
              coverage.check(false).percentage(p -> p > 15);
            });
  }

  private static boolean closureHasCycle(Map<Integer, List<Integer>> graph) {
    List<Integer> nodes = new ArrayList<>(new HashSet<>(graph.keySet()));
    graph
        .values()
        .forEach(
            out ->
                out.forEach(
                    n -> {
                      if (!nodes.contains(n)) {
                        nodes.add(n);
                      }
                    }));
    int n = nodes.size();
    boolean[][] reach = new boolean[n][n];
    for (var entry : graph.entrySet()) {
      for (Integer to : entry.getValue()) {
        reach[nodes.indexOf(entry.getKey())][nodes.indexOf(to)] = true;
      }
    }
    for (int k = 0; k < n; k++) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          reach[i][j] |= reach[i][k] && reach[k][j];
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (reach[i][i]) {
        return true;
      }
    }
    return false;
  }

  /** Graphs of up to 10 nodes with varying density; edges may lead to nodes without entries. */
  @Provide
  Arbitrary<Map<Integer, List<Integer>>> graphs() {
    return Arbitraries.longs()
        .map(
            seed -> {
              Random random = new Random(seed);
              int size = 1 + random.nextInt(10);
              double density = random.nextDouble() * 0.35;
              Map<Integer, List<Integer>> graph = new LinkedHashMap<>();
              for (int from = 0; from < size; from++) {
                List<Integer> out = new ArrayList<>();
                for (int to = 0; to < size + 2; to++) {
                  if (random.nextDouble() < density) {
                    out.add(to);
                  }
                }
                graph.put(from, out);
              }
              return graph;
            });
  }
}
