package io.agentteams.sdk.jobs;

import org.jspecify.annotations.Nullable;

/**
 * What a run used, in the form the scheduler takes with a report and keeps with the job: the
 * scheduler's ledger counts {@code tokens} and {@code costUnits} against the budgets.
 *
 * @param tokens model tokens, input and output together
 * @param costUnits cost in integer micro-units of the owner's currency (e.g. micro-dollars)
 * @param inputTokens of the tokens, those the model read
 * @param outputTokens of the tokens, those the model wrote
 * @param model the model that used them, if one did
 */
public record Usage(
    long tokens, long costUnits, long inputTokens, long outputTokens, @Nullable String model) {

  /** Nothing used. */
  public static final Usage NONE = new Usage(0, 0);

  public Usage {
    if (tokens < 0 || costUnits < 0 || inputTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException("usage cannot be negative");
    }
    tokens = Math.max(tokens, Math.addExact(inputTokens, outputTokens));
  }

  /** Tokens and cost only. */
  public Usage(long tokens, long costUnits) {
    this(tokens, costUnits, 0, 0, null);
  }

  /** Model tokens only. */
  public static Usage tokens(long tokens) {
    return new Usage(tokens, 0);
  }

  /** What a model read and wrote, and the cost (micro-units) of it. */
  public static Usage of(
      long inputTokens, long outputTokens, long costUnits, @Nullable String model) {
    return new Usage(0, costUnits, inputTokens, outputTokens, model);
  }

  /** Both together (the later model's name, when both name one). */
  public Usage plus(Usage other) {
    return new Usage(
        Math.addExact(tokens, other.tokens),
        Math.addExact(costUnits, other.costUnits),
        Math.addExact(inputTokens, other.inputTokens),
        Math.addExact(outputTokens, other.outputTokens),
        other.model != null ? other.model : model);
  }
}
