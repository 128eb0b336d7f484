package io.agentteams.sdk.problem;

import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** 5xx: the API (or a service behind it) failed or is unavailable; the call may be retried. */
public final class ServerException extends ApiException {

  private final @Nullable Duration retryAfter;

  public ServerException(Problem problem, @Nullable Duration retryAfter) {
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
