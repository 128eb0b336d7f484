package io.agentteams.archfixture.team.domain;

import io.agentteams.platform.problem.ProblemException;

/** A domain rule that refuses with the HTTP edge's problem. */
public class HttpFlavouredRule {

  public void check(int members) {
    if (members < 2) {
      throw new ProblemException(ProblemException.Kind.INVALID, "too-few-members", "too few");
    }
  }
}
