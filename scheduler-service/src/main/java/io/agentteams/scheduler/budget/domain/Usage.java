package io.agentteams.scheduler.budget.domain;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a run used, as its agent reported it. Budgets count {@code tokens} and {@code costUnits};
 * the split into input and output tokens and the model are kept beside them so that spend can be
 * broken down by model.
 *
 * @param tokens model tokens, input and output together (never less than their sum)
 * @param costUnits cost in integer micro-units of the owner's currency (e.g. micro-dollars)
 * @param inputTokens of the tokens, those the model read
 * @param outputTokens of the tokens, those the model wrote
 * @param model the model the agent named, if it named one (a bounded printable string)
 */
public record Usage(
    long tokens, long costUnits, long inputTokens, long outputTokens, @Nullable String model) {

  /** The longest model name the ledger keeps, in characters. */
  public static final int MAX_MODEL_LENGTH = 128;

  public static final Usage NONE = new Usage(0, 0);

  public Usage {
    if (tokens < 0 || costUnits < 0 || inputTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException("usage cannot be negative");
    }
    tokens = Math.max(tokens, Math.addExact(inputTokens, outputTokens));
    if (model != null) {
      checkModel(model);
    }
  }

  /** Tokens and cost only, with no split and no model. */
  public Usage(long tokens, long costUnits) {
    this(tokens, costUnits, 0, 0, null);
  }

  /**
   * Refuses a model name that is blank, longer than {@link #MAX_MODEL_LENGTH} characters or holds a
   * control, format or separator character (it is shown to people, and kept in the ledger).
   */
  public static String checkModel(String model) {
    boolean bad = model.isBlank() || model.codePointCount(0, model.length()) > MAX_MODEL_LENGTH;
    for (int i = 0; i < model.length() && !bad; ) {
      int c = model.codePointAt(i);
      int type = Character.getType(c);
      bad =
          Character.isISOControl(c)
              || type == Character.FORMAT
              || type == Character.LINE_SEPARATOR
              || type == Character.PARAGRAPH_SEPARATOR
              || type == Character.SURROGATE
              || type == Character.UNASSIGNED;
      i += Character.charCount(c);
    }
    if (bad) {
      throw BudgetProblems.invalidModel(MAX_MODEL_LENGTH);
    }
    return model;
  }

  /**
   * The larger of each measure: reports carry a job's usage so far, so they never shrink it. The
   * model is the latest one named: {@code other}'s when it names one, else this one's.
   */
  public Usage atLeast(Usage other) {
    return new Usage(
        Math.max(tokens, other.tokens),
        Math.max(costUnits, other.costUnits),
        Math.max(inputTokens, other.inputTokens),
        Math.max(outputTokens, other.outputTokens),
        other.model != null ? other.model : model);
  }

  /** Tokens and cost only: what budgets count and holds reserve. */
  public Usage amounts() {
    return inputTokens == 0 && outputTokens == 0 && model == null
        ? this
        : new Usage(tokens, costUnits);
  }

  /** Whether nothing was used. */
  public boolean none() {
    return tokens == 0 && costUnits == 0;
  }

  /** Both together; the model is kept only when both name the same one. */
  public Usage plus(Usage other) {
    return new Usage(
        Math.addExact(tokens, other.tokens),
        Math.addExact(costUnits, other.costUnits),
        Math.addExact(inputTokens, other.inputTokens),
        Math.addExact(outputTokens, other.outputTokens),
        Objects.equals(model, other.model) ? model : null);
  }
}
