package io.agentteams.scheduler.job.domain;

import java.util.Objects;

/**
 * The owner's answer to a question.
 *
 * @param kind the kind of question it answers
 * @param content the answer text, or the response as compact JSON text
 */
public record Answer(InputKind kind, String content) {

  public Answer {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(content, "content");
  }
}
