package io.agentteams.sdk.problem;

import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** 429: the token's request budget is spent for now; try again after {@link #retryAfter()}. */
public final class RateLimitedException extends ApiException {

  private final @Nullable Duration retryAfter;

  public RateLimitedException(Problem problem, @Nullable Duration retryAfter) {
    super(problem);
    this.retryAfter = retryAfter;
  }

  /** How long the API asked the caller to wait, if it said. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  @Override
  public boolean retryable() {
    return true;
  }
}
