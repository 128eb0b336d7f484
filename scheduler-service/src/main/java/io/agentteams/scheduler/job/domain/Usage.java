package io.agentteams.scheduler.job.domain;

/**
 * What a run used, as its agent reported it.
 *
 * @param tokens model tokens
 * @param costUnits cost in whatever unit the deployment agrees on (e.g. micro-dollars)
 */
public record Usage(long tokens, long costUnits) {

  public static final Usage NONE = new Usage(0, 0);

  public Usage {
    if (tokens < 0 || costUnits < 0) {
      throw new IllegalArgumentException("usage cannot be negative");
    }
  }

  /** The larger of each measure: reports carry a job's usage so far, so they never shrink it. */
  public Usage atLeast(Usage other) {
    return new Usage(Math.max(tokens, other.tokens), Math.max(costUnits, other.costUnits));
  }

  /** Whether nothing was used. */
  public boolean none() {
    return tokens == 0 && costUnits == 0;
  }

  public Usage plus(Usage other) {
    return new Usage(
        Math.addExact(tokens, other.tokens), Math.addExact(costUnits, other.costUnits));
  }
}
