package io.agentteams.platform.problem;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A problem of the HTTP edge itself (no or a bad token, a body or request rate over its limit, a
 * downstream service that did not answer, a malformed web input), carrying the status it is
 * answered with. Domain and application code never throw it: they name their refusals as {@link
 * DomainFailure}s, and the web layer decides how those are answered.
 */
public class ProblemException extends Refusal {

  /** What kind of problem, which decides the HTTP status. */
  public enum Kind {
    INVALID(400, "Invalid request"),
    UNAUTHENTICATED(401, "Authentication required"),
    FORBIDDEN(403, "Not allowed"),
    NOT_FOUND(404, "Not found"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    NOT_ACCEPTABLE(406, "Not acceptable"),
    CONFLICT(409, "Conflict"),
    PAYLOAD_TOO_LARGE(413, "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type"),
    LIMIT_EXCEEDED(422, "Limit exceeded"),
    TOO_MANY_REQUESTS(429, "Too many requests"),
    INTERNAL(500, "Internal error"),
    UNAVAILABLE(503, "Temporarily unavailable");

    private final int status;
    private final String title;

    Kind(int status, String title) {
      this.status = status;
      this.title = title;
    }

    public int status() {
      return status;
    }

    public String title() {
      return title;
    }
  }

  private final Kind kind;

  /**
   * @param kind decides the status
   * @param code a stable kebab-case name for this problem, e.g. {@code team-limit}
   * @param detail a sentence for people
   * @param properties facts for programs, e.g. the limit and the actual value
   */
  public ProblemException(
      Kind kind, String code, String detail, Map<String, ? extends @Nullable Object> properties) {
    super(code, detail, properties);
    this.kind = kind;
  }

  public ProblemException(Kind kind, String code, String detail) {
    this(kind, code, detail, Map.of());
  }

  public Kind kind() {
    return kind;
  }
}
