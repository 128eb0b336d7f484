package io.agentteams.scheduler.job.web;

import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.Outcome;
import io.agentteams.scheduler.job.domain.Question;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A job as the API shows it to its owner. {@code waiting_reason} says why a job that is not running
 * waits where that is not obvious from its state: {@code waiting_worker} means no worker of its
 * agent took it in time.
 */
public record JobView(
    UUID id,
    UUID teamId,
    String member,
    String agentId,
    String conversationId,
    String kind,
    String requester,
    @Nullable UUID parentJobId,
    UUID chainId,
    String state,
    long revision,
    String input,
    @Nullable String idempotencyKey,
    boolean resume,
    @Nullable InputView question,
    @Nullable InputView answer,
    @Nullable ResultView result,
    UsageView usage,
    @Nullable UUID receiptJobId,
    @Nullable String receiptNote,
    Instant createdAt,
    Instant queuedAt,
    @Nullable Instant admittedAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    @Nullable String waitingReason) {

  /** What a job that gave its slot back for want of a worker says to its owner. */
  public static String noWorkerConnected(String agentId) {
    return "no worker connected: no worker of agent '"
        + agentId
        + "' took the job in time; it keeps its place and starts when one connects";
  }

  /** A question or an answer: text for a clarification, JSON for an interrupt. */
  public record InputView(String kind, @Nullable String text, @Nullable JsonNode payload) {

    static InputView of(InputKind kind, String content, JsonMapper json) {
      return kind == InputKind.CLARIFICATION
          ? new InputView(kind.wire(), content, null)
          : new InputView(kind.wire(), null, json.readTree(content));
    }
  }

  /** How the job ended. */
  public record ResultView(
      String status,
      @Nullable String answer,
      boolean truncated,
      @Nullable String error,
      @Nullable String runId) {}

  /**
   * What its run reported using, its totals so far.
   *
   * @param tokens input and output together, the measure budgets count
   * @param costUnits cost in integer micro-units of the owner's currency
   * @param inputTokens tokens the model read
   * @param outputTokens tokens the model wrote
   * @param model the model the latest report that named one named; null when none did
   */
  public record UsageView(
      long tokens, long costUnits, long inputTokens, long outputTokens, @Nullable String model) {

    static UsageView of(Usage usage) {
      return new UsageView(
          usage.tokens(),
          usage.costUnits(),
          usage.inputTokens(),
          usage.outputTokens(),
          usage.model());
    }
  }

  public static JobView of(Job job, JsonMapper json) {
    JobSpec spec = job.spec();
    Question question = job.question();
    Answer answer = job.answerGiven();
    Outcome outcome = job.outcome();
    return new JobView(
        spec.id(),
        spec.teamId(),
        spec.target().name(),
        spec.target().agentId(),
        spec.target().conversationId(),
        spec.kind().wire(),
        spec.requester(),
        spec.parentJobId(),
        spec.chainId(),
        job.state().wire(),
        job.revision(),
        spec.input(),
        spec.idempotencyKey(),
        job.resume(),
        question == null ? null : InputView.of(question.kind(), question.content(), json),
        answer == null ? null : InputView.of(answer.kind(), answer.content(), json),
        outcome == null || !job.state().finished()
            ? null
            : new ResultView(
                job.state().wire(),
                outcome.answer(),
                outcome.truncated(),
                outcome.error(),
                job.runId()),
        UsageView.of(job.usage()),
        job.receiptJobId(),
        job.receiptNote(),
        spec.createdAt(),
        job.queuedAt(),
        job.admittedAt(),
        job.startedAt(),
        job.finishedAt(),
        job.state() == JobState.WAITING_WORKER ? noWorkerConnected(spec.target().agentId()) : null);
  }
}
