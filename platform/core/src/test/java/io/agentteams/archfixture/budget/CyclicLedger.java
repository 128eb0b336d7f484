package io.agentteams.archfixture.budget;

import io.agentteams.archfixture.job.FixtureJob;

/** A ledger that reads jobs and is called by the job capability directly: closes a cycle. */
public class CyclicLedger {

  public long settle(FixtureJob job) {
    return job.tokens();
  }
}
