package io.agentteams.taskboard.task.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Write scopes: normalisation is stable, and overlap means "one is a path prefix of the other". */
class WriteScopesPropertiesTest {

  @Property(tries = 2000)
  void overlapIsSegmentPrefixInEitherDirection(
      @ForAll("paths") String a, @ForAll("paths") String b) {
    WriteScope left = WriteScope.normalise(a);
    WriteScope right = WriteScope.normalise(b);
    List<String> x = segments(a);
    List<String> y = segments(b);
    boolean model = startsWith(x, y) || startsWith(y, x);

    assertThat(left.overlaps(right)).isEqualTo(model);
    assertThat(right.overlaps(left)).isEqualTo(model);
  }

  @Property(tries = 1000)
  void normalisingTwiceChangesNothing(@ForAll("pathLists") List<String> raw) {
    List<WriteScope> once = WriteScopes.normalise(raw);
    List<WriteScope> twice = WriteScopes.normalise(once.stream().map(WriteScope::path).toList());

    assertThat(twice).isEqualTo(once);
  }

  @Property(tries = 1000)
  void aTasksScopesNeverContainOneAnotherYetCoverEveryInput(@ForAll("pathLists") List<String> raw) {
    List<WriteScope> scopes = WriteScopes.normalise(raw);

    for (WriteScope a : scopes) {
      for (WriteScope b : scopes) {
        if (!a.equals(b)) {
          assertThat(a.contains(b)).as("%s contains %s", a, b).isFalse();
        }
      }
    }
    for (String path : raw) {
      WriteScope input = WriteScope.normalise(path);
      assertThat(scopes).anyMatch(scope -> scope.contains(input));
    }
  }

  @Example
  void normalisesSeparatorsDotsAndSlashes() {
    assertThat(WriteScope.normalise(" ./src//main\\java/ ").path()).isEqualTo("/src/main/java");
    assertThat(WriteScope.normalise("/").path()).isEqualTo("/");
    assertThat(WriteScope.normalise(".").path()).isEqualTo("/");
    assertThat(WriteScope.normalise("docs/").path()).isEqualTo("/docs");
  }

  @Example
  void aSiblingWithACommonStemDoesNotOverlap() {
    assertThat(WriteScope.normalise("src/main").overlaps(WriteScope.normalise("src/mainline")))
        .isFalse();
    assertThat(WriteScope.normalise("src").overlaps(WriteScope.normalise("src/main/App.java")))
        .isTrue();
  }

  @Example
  void refusesPathsThatClimbOutOrAreBlank() {
    assertThatThrownBy(() -> WriteScope.normalise("src/../../etc"))
        .isInstanceOf(DomainFailure.class)
        .hasMessageContaining("'..'");
    assertThatThrownBy(() -> WriteScope.normalise("  "))
        .isInstanceOf(DomainFailure.class)
        .extracting(e -> ((DomainFailure) e).code())
        .isEqualTo("invalid-write-scope");
  }

  @Example
  void overlapsAreReportedAgainstEveryOtherTaskButNeverItself() {
    TaskId mine = TaskId.of(1);
    List<WriteScopes.Overlap> overlaps =
        WriteScopes.overlaps(
            mine,
            WriteScopes.normalise(List.of("src/api")),
            Map.of(
                mine,
                WriteScopes.normalise(List.of("src/api")),
                TaskId.of(2),
                WriteScopes.normalise(List.of("src")),
                TaskId.of(3),
                WriteScopes.normalise(List.of("docs"))));

    assertThat(overlaps)
        .containsExactly(
            new WriteScopes.Overlap(
                mine, new WriteScope("/src/api"), TaskId.of(2), new WriteScope("/src")));
  }

  private static List<String> segments(String raw) {
    List<String> segments = new ArrayList<>();
    for (String s : raw.replace('\\', '/').strip().split("/")) {
      if (!s.isEmpty() && !s.equals(".")) {
        segments.add(s);
      }
    }
    return segments;
  }

  private static boolean startsWith(List<String> whole, List<String> prefix) {
    return whole.size() >= prefix.size() && whole.subList(0, prefix.size()).equals(prefix);
  }

  @Provide
  Arbitrary<String> paths() {
    Arbitrary<String> segment = Arbitraries.of("src", "main", "java", "docs", "a", "b", ".", "");
    Arbitrary<String> separator = Arbitraries.of("/", "/", "\\", "//");
    return Arbitraries.lazy(
        () ->
            segment
                .list()
                .ofMinSize(1)
                .ofMaxSize(5)
                .flatMap(
                    parts ->
                        separator.map(
                            sep -> {
                              String joined = String.join(sep, parts);
                              return joined.isBlank() ? "." : joined;
                            })));
  }

  @Provide
  Arbitrary<List<String>> pathLists() {
    return paths().list().ofMinSize(1).ofMaxSize(6);
  }
}
