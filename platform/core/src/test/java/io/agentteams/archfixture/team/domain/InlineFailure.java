package io.agentteams.archfixture.team.domain;

import io.agentteams.platform.problem.DomainFailure;

/** A domain rule that builds its failure where it throws it. */
public class InlineFailure {

  public void check(int members) {
    if (members < 2) {
      throw DomainFailure.invalid("too-few-members", "a team needs at least 2 members");
    }
  }
}
