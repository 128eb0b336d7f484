package io.agentteams.archfixture.team.domain;

/** A domain rule that refuses with a named failure. */
public class NamedRule {

  public void check(int members) {
    if (members < 2) {
      throw FixtureProblems.tooFewMembers(2, members);
    }
  }
}
