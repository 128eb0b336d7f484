package io.agentteams.sdk.worker;

import io.agentteams.sdk.jobs.Usage;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** How a run ended, as the worker reports it. */
public sealed interface JobResult {

  /** What the run used. */
  Usage usage();

  /** The run finished with an answer (kept up to 6,000 bytes, cut with a notice beyond). */
  static JobResult completed(String answer, Usage usage) {
    return new Completed(answer, usage);
  }

  /** The run finished with an answer and used nothing worth reporting. */
  static JobResult completed(String answer) {
    return new Completed(answer, Usage.NONE);
  }

  /** The run failed. */
  static JobResult failed(String error, Usage usage) {
    return new Failed(error, usage);
  }

  /** The run stops with a clarification question for the owner; the answer resumes the job. */
  static JobResult askOwner(String question) {
    return new InputRequired(question, null, Usage.NONE);
  }

  /**
   * The run finished.
   *
   * @param answer the final answer
   * @param usage what it used
   */
  record Completed(String answer, Usage usage) implements JobResult {
    public Completed {
      Objects.requireNonNull(answer);
      Objects.requireNonNull(usage);
    }
  }

  /**
   * The run failed.
   *
   * @param error what went wrong
   * @param usage what it used
   */
  record Failed(String error, Usage usage) implements JobResult {
    public Failed {
      Objects.requireNonNull(error);
      Objects.requireNonNull(usage);
    }
  }

  /**
   * The run stopped with a question: a clarification (text) or a structured interrupt (JSON).
   *
   * @param clarification the question's text, for a clarification
   * @param interrupt the payload, for an interrupt
   * @param usage what it used so far (kept by the worker, not reported with the question)
   */
  record InputRequired(@Nullable String clarification, @Nullable JsonNode interrupt, Usage usage)
      implements JobResult {
    public InputRequired {
      if ((clarification == null) == (interrupt == null)) {
        throw new IllegalArgumentException("a question is a clarification or an interrupt");
      }
      Objects.requireNonNull(usage);
    }
  }
}
