package io.agentteams.scheduler.job.domain;

import java.util.Objects;

/**
 * What a running job asked its owner.
 *
 * @param kind clarification or interrupt
 * @param content the question text, or the interrupt's payload as compact JSON text
 */
public record Question(InputKind kind, String content) {

  public Question {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(content, "content");
  }
}
