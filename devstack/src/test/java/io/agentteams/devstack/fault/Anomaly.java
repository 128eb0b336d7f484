package io.agentteams.devstack.fault;

/**
 * Something the record and the final state show that the system promised would not happen.
 *
 * @param kind what kind of promise was broken
 * @param evidence the operations and state that show it, for a person to follow
 */
public record Anomaly(Kind kind, String evidence) {

  /** The kinds of anomaly, each a column of the suite's table. */
  public enum Kind {
    /** Stored but never delivered to its reader (or a stream event never received). */
    LOST,
    /** Delivered, admitted, claimed or applied twice. */
    DUPLICATED,
    /** Delivered or run in another order than promised. */
    OUT_OF_ORDER,
    /** Acknowledged to the client, missing from the final state. */
    ACKNOWLEDGED_MISSING,
    /** Any other broken promise: a bound exceeded, an error that is not Problem Details. */
    OTHER
  }

  static Anomaly of(Kind kind, String format, Object... args) {
    return new Anomaly(kind, String.format(format, args));
  }
}
