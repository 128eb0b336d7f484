package io.agentteams.scheduler.budget.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UsageTest {

  @Test
  void reportsAreTotalsSoFarEachMeasureOnItsOwnAndTheLatestModelNamedCounts() {
    Usage first = new Usage(0, 5, 10, 4, "draft-1");
    Usage unnamed = new Usage(0, 3, 30, 2, null);
    Usage renamed = new Usage(0, 0, 20, 9, "big-1");

    Usage soFar = first.atLeast(unnamed);
    assertThat(soFar).isEqualTo(new Usage(34, 5, 30, 4, "draft-1"));
    assertThat(soFar.atLeast(renamed)).isEqualTo(new Usage(39, 5, 30, 9, "big-1"));
    assertThat(soFar.atLeast(renamed).atLeast(renamed)).isEqualTo(soFar.atLeast(renamed));
    assertThat(new Usage(100, 0, 10, 4, null).tokens())
        .as("a total above the split stays")
        .isEqualTo(100);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "tab\there",
        "bell\u0007",
        "line\u2028break",
        "rtl\u202Eoverride",
        "nul\u0000"
      })
  void aModelThatIsNotABoundedPrintableNameIsRefusedNamingTheField(String model) {
    assertThatThrownBy(() -> new Usage(1, 0, 0, 0, model))
        .isInstanceOfSatisfying(
            DomainFailure.class,
            failure -> {
              assertThat(failure.code()).isEqualTo("invalid-model");
              assertThat(failure.parameters()).containsEntry("field", "usage.model");
            });
  }

  @Test
  void aModelOfAtMost128CharactersOfAnyScriptIsKept() {
    String longest = "模".repeat(Usage.MAX_MODEL_LENGTH);
    assertThat(new Usage(1, 0, 0, 0, longest).model()).isEqualTo(longest);
    assertThat(new Usage(1, 0, 0, 0, "<img src=x onerror=alert(1)>").model())
        .isEqualTo("<img src=x onerror=alert(1)>");
    assertThatThrownBy(() -> new Usage(1, 0, 0, 0, longest + "x"))
        .isInstanceOf(DomainFailure.class);
  }
}
