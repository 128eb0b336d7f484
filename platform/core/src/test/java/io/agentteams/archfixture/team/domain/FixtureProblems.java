package io.agentteams.archfixture.team.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;

/** Named failures, as every service's domain has them. */
public final class FixtureProblems {

  private FixtureProblems() {}

  public static DomainFailure tooFewMembers(int min, int actual) {
    return DomainFailure.invalid(
        "too-few-members",
        "a team needs at least " + min + " members, got " + actual,
        Map.of("min", min, "actual", actual));
  }
}
