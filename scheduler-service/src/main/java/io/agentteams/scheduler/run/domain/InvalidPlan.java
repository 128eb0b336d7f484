package io.agentteams.scheduler.run.domain;

/** A plan the run cannot follow: the reason is reported as the run's failure. */
public final class InvalidPlan extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public InvalidPlan(String reason) {
    super(reason, null, false, false);
  }

  /** Why the plan cannot be followed, in a sentence. */
  public String reason() {
    return getMessage();
  }
}
