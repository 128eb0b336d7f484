package io.agentteams.platform.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A refusal's facts never take the name of a member that says what the answer itself is. */
class RefusalTest {

  @ParameterizedTest
  @ValueSource(strings = {"type", "title", "status", "detail", "instance", "code"})
  void aParameterNamedLikeAProblemDetailsMemberIsRefused(String name) {
    assertThatThrownBy(
            () -> DomainFailure.conflict("team-not-active", "team t is failed", Map.of(name, "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"team_status", "task_status", "limit", "actual", "id"})
  void otherNamesAreKept(String name) {
    DomainFailure failure =
        DomainFailure.conflict("team-not-active", "team t is failed", Map.of(name, "x"));
    assertThat(failure.parameters()).containsEntry(name, "x");
  }
}
