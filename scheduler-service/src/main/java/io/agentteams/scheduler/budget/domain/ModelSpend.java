package io.agentteams.scheduler.budget.domain;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one scope's settled jobs spent with one model. A job counts under the model its latest
 * report named; a job that named none counts under {@link #UNSPECIFIED}.
 *
 * @param model the model's name, as the agent reported it (untrusted text: shown as data)
 * @param inputTokens tokens the model read
 * @param outputTokens tokens the model wrote
 * @param tokens all its tokens, the measure budgets count (never less than input and output)
 * @param cost cost in integer micro-units of the owner's currency
 * @param jobs how many settled jobs it was
 */
public record ModelSpend(
    String model, long inputTokens, long outputTokens, long tokens, long cost, long jobs) {

  /** The model of jobs that named none. */
  public static final String UNSPECIFIED = "unspecified";

  public ModelSpend {
    Objects.requireNonNull(model, "model");
  }

  /** One settled job's spend, under its model. */
  public static ModelSpend of(Usage used) {
    return new ModelSpend(
        modelOf(used.model()),
        used.inputTokens(),
        used.outputTokens(),
        used.tokens(),
        used.costUnits(),
        1);
  }

  /** The model a job counts under. */
  public static String modelOf(@Nullable String model) {
    return model == null ? UNSPECIFIED : model;
  }

  /** Both together, under this one's model. */
  public ModelSpend plus(ModelSpend other) {
    return new ModelSpend(
        model,
        Math.addExact(inputTokens, other.inputTokens),
        Math.addExact(outputTokens, other.outputTokens),
        Math.addExact(tokens, other.tokens),
        Math.addExact(cost, other.cost),
        Math.addExact(jobs, other.jobs));
  }
}
