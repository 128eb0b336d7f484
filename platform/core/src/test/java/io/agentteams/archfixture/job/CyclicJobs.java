package io.agentteams.archfixture.job;

import io.agentteams.archfixture.budget.CyclicLedger;

/** A job capability that calls the budget's ledger directly, while the ledger reads its jobs. */
public class CyclicJobs {

  private final CyclicLedger ledger;

  public CyclicJobs(CyclicLedger ledger) {
    this.ledger = ledger;
  }

  public long finish(FixtureJob job) {
    return ledger.settle(job);
  }
}
