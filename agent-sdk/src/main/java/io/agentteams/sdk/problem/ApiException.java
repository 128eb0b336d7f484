package io.agentteams.sdk.problem;

import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The API answered with an error. Each status has its own subclass, so callers can catch what they
 * expect ({@link NotFoundException}, {@link ConflictException}, ...) and read the {@link Problem}.
 */
public class ApiException extends AgentTeamsException {

  private final Problem problem;

  public ApiException(Problem problem) {
    super(message(problem));
    this.problem = problem;
  }

  private static String message(Problem problem) {
    StringBuilder text = new StringBuilder().append(problem.status());
    if (problem.code() != null) {
      text.append(' ').append(problem.code());
    }
    if (problem.detail() != null) {
      text.append(": ").append(problem.detail());
    }
    return text.toString();
  }

  /** The Problem Details of the answer. */
  public Problem problem() {
    return problem;
  }

  /** The HTTP status. */
  public int status() {
    return problem.status();
  }

  /** The stable problem code, e.g. {@code stale-lease}; empty if the answer had none. */
  public Optional<String> code() {
    return Optional.ofNullable(problem.code());
  }

  /** Whether the answer carries this problem code. */
  public boolean is(String code) {
    return code.equals(problem.code());
  }

  @Override
  public boolean retryable() {
    return false;
  }

  /** The exception that fits the status of a problem answer. */
  public static ApiException of(Problem problem, @Nullable Duration retryAfter) {
    return switch (problem.status()) {
      case 400 -> new BadRequestException(problem);
      case 401 -> new UnauthorizedException(problem);
      case 403 -> new ForbiddenException(problem);
      case 404 -> new NotFoundException(problem);
      case 409 -> new ConflictException(problem);
      case 413 -> new PayloadTooLargeException(problem);
      case 422 -> new LimitExceededException(problem);
      case 429 -> new RateLimitedException(problem, retryAfter);
      default ->
          problem.status() >= 500
              ? new ServerException(problem, retryAfter)
              : new ApiException(problem);
    };
  }
}
