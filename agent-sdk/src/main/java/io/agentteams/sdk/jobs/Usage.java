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
 * @param model the model that used them, if one did: at most {@value #MAX_MODEL_LENGTH} printable
 *     characters (the scheduler refuses a report naming any other, and with it the report's result)
 */
public record Usage(
    long tokens, long costUnits, long inputTokens, long outputTokens, @Nullable String model) {

  /** The longest model name the scheduler keeps, in characters. */
  public static final int MAX_MODEL_LENGTH = 128;

  /** Nothing used. */
  public static final Usage NONE = new Usage(0, 0);

  public Usage {
    if (tokens < 0 || costUnits < 0 || inputTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException("usage cannot be negative");
    }
    if (model != null && !isModelName(model)) {
      throw new IllegalArgumentException(
          "a model name is 1 to "
              + MAX_MODEL_LENGTH
              + " characters with no control, format or separator character");
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

  /**
   * Whether the scheduler's ledger keeps this as a model's name: 1 to {@value #MAX_MODEL_LENGTH}
   * characters with no control, format or separator character (it is shown to people).
   */
  public static boolean isModelName(String model) {
    if (model.isBlank() || model.codePointCount(0, model.length()) > MAX_MODEL_LENGTH) {
      return false;
    }
    return model
        .codePoints()
        .noneMatch(
            c -> {
              int type = Character.getType(c);
              return Character.isISOControl(c)
                  || type == Character.FORMAT
                  || type == Character.LINE_SEPARATOR
                  || type == Character.PARAGRAPH_SEPARATOR
                  || type == Character.SURROGATE
                  || type == Character.UNASSIGNED;
            });
  }
}
