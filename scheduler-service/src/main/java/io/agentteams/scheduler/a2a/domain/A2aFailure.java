package io.agentteams.scheduler.a2a.domain;

/**
 * A call to an A2A agent that did not return a result, and what that means for the job.
 *
 * @see Kind
 */
public final class A2aFailure extends RuntimeException {

  /** What kind of failure, as far as the runtime must tell them apart. */
  public enum Kind {
    /** The outbound guard refused the URL; nothing was sent. */
    REFUSED("guard"),
    /** Nothing was sent (no connection), or the agent answered 429 or 5xx: worth another try. */
    RETRYABLE("retryable"),
    /** The agent answered 401 or 403: it no longer accepts this team's calls. */
    UNAUTHORIZED("unauthorized"),
    /** The agent knows no such task. */
    TASK_NOT_FOUND("task_not_found"),
    /** The agent does not offer the operation. */
    UNSUPPORTED("unsupported"),
    /** Any other refusal: another 4xx, a JSON-RPC error, an answer that is not A2A. */
    REJECTED("rejected"),
    /** The request left but no answer came back: whether the agent acted on it is unknown. */
    UNKNOWN("unknown");

    private final String word;

    Kind(String word) {
      this.word = word;
    }

    /** The word metrics use. */
    public String word() {
      return word;
    }
  }

  private final Kind kind;

  public A2aFailure(Kind kind, String reason) {
    super(reason, null, false, false);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
