package io.agentteams.platform.test;

/**
 * The throughput ceiling of a path that does a raw Kafka round trip and a durable Postgres commit
 * for each item on the same processors: {@code 1 / (1/raw Kafka + 1/raw Postgres)}, from both
 * floors measured in the same run. A transactional outbox cannot beat it, whatever it does besides.
 *
 * @param rawKafka raw Kafka round trips per second
 * @param rawPostgres durable single-statement commits per second
 */
public record ComposedFloor(double rawKafka, double rawPostgres) {

  /** The composed floor, per second. */
  public double perSecond() {
    return 1 / (1 / rawKafka + 1 / rawPostgres);
  }

  /** A path's throughput as a share of the composed floor, in percent. */
  public double percentOf(double perSecond) {
    return 100 * perSecond / perSecond();
  }

  /** One line for a benchmark's report. */
  public String describe() {
    return String.format(
        "composed floor 1 / (1/%.0f + 1/%.0f) = %.0f per second",
        rawKafka, rawPostgres, perSecond());
  }
}
