package io.agentteams.scheduler.webhook.domain;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** How one push attempt ended, as far as the webhook runtime must tell the cases apart. */
public sealed interface PushResult {

  /** A word for metrics and the delivery record. */
  String outcome();

  /** The agent answered in the response (2xx other than 202): the body holds its report. */
  record Answered(int status, String body) implements PushResult {
    @Override
    public String outcome() {
      return "answered";
    }
  }

  /** The agent took the job (202) and reports on it later under the lease. */
  record Accepted() implements PushResult {
    @Override
    public String outcome() {
      return "accepted";
    }
  }

  /**
   * Worth another attempt: a network error before the request was sent, 429 or a 5xx.
   *
   * @param reason what happened, for the job's failure if no attempt is left
   * @param retryAfter the wait the agent asked for, if it did
   */
  record Retryable(String reason, @Nullable Duration retryAfter) implements PushResult {
    @Override
    public String outcome() {
      return "retryable";
    }
  }

  /** The agent refused our credentials (401 or 403): it no longer accepts this team's pushes. */
  record Unauthorized(int status) implements PushResult {
    @Override
    public String outcome() {
      return "unauthorized";
    }
  }

  /** The agent refused the push for good (another 4xx, a redirect, an answer too large). */
  record Rejected(String reason) implements PushResult {
    @Override
    public String outcome() {
      return "rejected";
    }
  }

  /**
   * The request left but no answer came back (a time-out, the connection closed): whether the agent
   * took the job is unknown.
   */
  record Unknown(String reason) implements PushResult {
    @Override
    public String outcome() {
      return "unknown";
    }
  }

  /** The outbound guard refused the endpoint; nothing was sent. */
  record Refused(String reason) implements PushResult {
    @Override
    public String outcome() {
      return "refused";
    }
  }

  /** What an HTTP answer means. */
  static PushResult ofStatus(int status, @Nullable Duration retryAfter, String body) {
    if (status == 202) {
      return new Accepted();
    }
    if (status >= 200 && status < 300) {
      return new Answered(status, body);
    }
    if (status == 401 || status == 403) {
      return new Unauthorized(status);
    }
    if (status == 429 || status == 408 || status >= 500) {
      return new Retryable("the agent answered " + status, retryAfter);
    }
    if (status >= 300 && status < 400) {
      return new Rejected("the agent answered " + status + "; redirects are not followed");
    }
    return new Rejected("the agent refused the push with " + status);
  }
}
