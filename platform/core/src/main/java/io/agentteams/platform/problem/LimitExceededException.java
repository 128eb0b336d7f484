package io.agentteams.platform.problem;

import java.util.Map;

/** A write that would exceed a configured limit; it names the limit and is rejected whole. */
public final class LimitExceededException extends DomainFailure {

  private final String limit;
  private final long max;
  private final long actual;

  /**
   * @param limit the configuration name of the limit, e.g. {@code team.name.max-chars}
   * @param unit what is counted: {@code chars}, {@code bytes}, {@code members}, ...
   * @param max the configured maximum
   * @param actual what the request would have reached
   */
  public LimitExceededException(String limit, String unit, long max, long actual) {
    super(
        Kind.LIMIT_EXCEEDED,
        "limit-exceeded",
        "%s: %d %s exceeds the limit of %d".formatted(limit, actual, unit, max),
        Map.of("limit", limit, "unit", unit, "max", max, "actual", actual));
    this.limit = limit;
    this.max = max;
    this.actual = actual;
  }

  public String limit() {
    return limit;
  }

  public long max() {
    return max;
  }

  public long actual() {
    return actual;
  }
}
