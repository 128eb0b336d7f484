package io.agentteams.archfixture.job;

/** The port the job capability owns for what it asks of the budgets. */
public interface JobSpending {

  long settle(FixtureJob job);
}
