package io.agentteams.archfixture.job;

/** A job capability that asks the budgets through the port it owns: the arrow runs one way. */
public class PortedJobs {

  private final JobSpending spending;

  public PortedJobs(JobSpending spending) {
    this.spending = spending;
  }

  public long finish(FixtureJob job) {
    return spending.settle(job);
  }
}
