package io.agentteams.team.text.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;

/** The named refusals of text that cannot be stored. */
public final class TextProblems {

  private TextProblems() {}

  /** Postgres text cannot hold NUL. */
  public static DomainFailure nulCharacter(String field, int index) {
    return DomainFailure.invalid(
        "nul-character",
        field + " holds a NUL character at index " + index,
        Map.of("field", field, "index", index));
  }

  public static DomainFailure blank(String field) {
    return DomainFailure.invalid("blank-field", field + " must not be blank");
  }
}
