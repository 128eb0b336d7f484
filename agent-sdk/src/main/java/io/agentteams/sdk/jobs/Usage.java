package io.agentteams.sdk.jobs;

/**
 * What a run used, in the form the scheduler takes with a report and keeps with the job.
 *
 * @param tokens model tokens
 * @param costUnits cost in the unit the deployment agrees on (e.g. micro-dollars)
 */
public record Usage(long tokens, long costUnits) {

  /** Nothing used. */
  public static final Usage NONE = new Usage(0, 0);

  public Usage {
    if (tokens < 0 || costUnits < 0) {
      throw new IllegalArgumentException("usage cannot be negative");
    }
  }

  /** Model tokens only. */
  public static Usage tokens(long tokens) {
    return new Usage(tokens, 0);
  }

  /** Both together. */
  public Usage plus(Usage other) {
    return new Usage(
        Math.addExact(tokens, other.tokens), Math.addExact(costUnits, other.costUnits));
  }
}
