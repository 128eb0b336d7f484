package io.agentteams.scheduler.job.domain;

import org.jspecify.annotations.Nullable;

/**
 * How a finished job ended.
 *
 * @param answer the final answer (completed), capped with a truncation notice
 * @param truncated whether the answer or error was cut
 * @param error why it failed or was cancelled, capped likewise
 */
public record Outcome(@Nullable String answer, boolean truncated, @Nullable String error) {

  /** The text that stands for the outcome in results and receipts. */
  public String text() {
    if (answer != null) {
      return answer;
    }
    return error == null ? "" : error;
  }
}
