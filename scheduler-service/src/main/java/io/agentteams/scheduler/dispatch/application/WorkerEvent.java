package io.agentteams.scheduler.dispatch.application;

import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.dispatch.domain.DispatchProblems;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Question;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One report of a runtime on a job, as the worker protocol writes it: the body of a pull worker's
 * {@code POST /api/v1/jobs/{id}/events} and of a webhook agent's answer to a push.
 *
 * @param type started, heartbeat, input_required, completed, failed or released
 * @param leaseToken the token of the offer the report answers
 * @param runId the runtime's id for the run, if it has one
 * @param question for input_required: {@code {kind: clarification, text}} or {@code {kind:
 *     interrupt, payload}}
 * @param answer for completed: the final answer
 * @param error for failed: what went wrong
 * @param usage the job's usage so far (a total, never an increment), on any report: a report that
 *     goes past a budget stops the job
 */
public record WorkerEvent(
    @Nullable String type,
    @Nullable String leaseToken,
    @Nullable String runId,
    @Nullable QuestionBody question,
    @Nullable String answer,
    @Nullable String error,
    @Nullable UsageBody usage) {

  /**
   * The report this event makes.
   *
   * @throws io.agentteams.platform.problem.DomainFailure naming what is missing or wrong
   */
  public WorkerReport toReport() {
    if (leaseToken == null || leaseToken.isBlank()) {
      throw DispatchProblems.invalidReport("missing-lease-token", "a report needs its lease token");
    }
    Usage used = usage == null ? Usage.NONE : usage.toUsage();
    return switch (type == null ? "" : type) {
      case "started" -> new WorkerReport.Started(leaseToken, runId, used);
      case "heartbeat" -> new WorkerReport.Heartbeat(leaseToken, runId, used);
      case "input_required" -> new WorkerReport.InputRequired(leaseToken, parsedQuestion(), runId);
      case "completed" ->
          new WorkerReport.Completed(leaseToken, answer == null ? "" : answer, used, runId);
      case "released" -> new WorkerReport.Released(leaseToken);
      case "failed" ->
          new WorkerReport.Failed(
              leaseToken, error == null || error.isBlank() ? "failed" : error, used, runId);
      default ->
          throw DispatchProblems.invalidReport(
              "unknown-event",
              "type must be started, heartbeat, input_required, completed, failed or released");
    };
  }

  private Question parsedQuestion() {
    if (question == null || question.kind() == null) {
      throw DispatchProblems.invalidReport("missing-question", "input_required needs a question");
    }
    return switch (question.kind()) {
      case "clarification" ->
          new Question(InputKind.CLARIFICATION, question.text() == null ? "" : question.text());
      case "interrupt" -> {
        if (question.payload() == null) {
          throw DispatchProblems.invalidReport("missing-payload", "an interrupt needs a payload");
        }
        yield new Question(InputKind.INTERRUPT, question.payload().toString());
      }
      default ->
          throw DispatchProblems.invalidReport(
              "unknown-question-kind", "question kind must be clarification or interrupt");
    };
  }

  /** This event as made under {@code token}, whatever lease token it named itself. */
  public WorkerEvent underLease(String token) {
    return new WorkerEvent(type, token, runId, question, answer, error, usage);
  }

  /** The most tokens or cost one report may carry. */
  public static final long MAX_USAGE = 1_000_000_000_000_000L;

  private static long orZero(@Nullable Long value) {
    return value == null ? 0 : value;
  }

  /** A question: text for a clarification, a JSON payload for an interrupt. */
  public record QuestionBody(
      @Nullable String kind, @Nullable String text, @Nullable JsonNode payload) {}

  /**
   * Usage a run reports, its totals so far: tokens (or input and output tokens, which add up to
   * them), cost in integer micro-units of the owner's currency ({@code cost}, or its older name
   * {@code cost_units}), and the model that used them. A model is a printable name of at most 128
   * characters; the job is attributed to the model its latest report named.
   */
  public record UsageBody(
      @Nullable Long tokens,
      @Nullable Long inputTokens,
      @Nullable Long outputTokens,
      @Nullable Long cost,
      @Nullable Long costUnits,
      @Nullable String model) {

    /**
     * The usage this body reports.
     *
     * @throws io.agentteams.platform.problem.Refusal {@code invalid-usage} for amounts out of range
     *     (a negative one naming its field), {@code invalid-model} (naming the field) for a model
     *     that is not a bounded printable name
     */
    public Usage toUsage() {
      if (model != null) {
        Usage.checkModel(model);
      }
      refuseNegative("tokens", tokens);
      refuseNegative("input_tokens", inputTokens);
      refuseNegative("output_tokens", outputTokens);
      refuseNegative("cost", cost);
      refuseNegative("cost_units", costUnits);
      try {
        long in = orZero(inputTokens);
        long out = orZero(outputTokens);
        long total = Math.max(orZero(tokens), Math.addExact(in, out));
        long spent = cost != null ? cost : orZero(costUnits);
        if (total > MAX_USAGE || spent > MAX_USAGE) {
          // Far beyond any real job; kept bounded so the ledger's sums never overflow.
          throw new IllegalArgumentException("usage is at most " + MAX_USAGE + " of each measure");
        }
        return new Usage(total, spent, in, out, model);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw DispatchProblems.invalidUsage(String.valueOf(e.getMessage()));
      }
    }

    /** A negative amount is refused, not read as none: a report is a total, never a refund. */
    private static void refuseNegative(String field, @Nullable Long amount) {
      if (amount != null && amount < 0) {
        throw DispatchProblems.negativeUsage(field);
      }
    }
  }
}
