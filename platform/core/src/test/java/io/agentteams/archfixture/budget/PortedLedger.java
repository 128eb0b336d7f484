package io.agentteams.archfixture.budget;

import io.agentteams.archfixture.job.FixtureJob;
import io.agentteams.archfixture.job.JobSpending;

/** A ledger that implements the job capability's port: it knows jobs, jobs do not know it. */
public class PortedLedger implements JobSpending {

  @Override
  public long settle(FixtureJob job) {
    return job.tokens();
  }
}
