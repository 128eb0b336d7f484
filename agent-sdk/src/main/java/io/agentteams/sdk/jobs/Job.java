package io.agentteams.sdk.jobs;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A job as its owner sees it: one directed request to one member's conversation, and its life.
 *
 * @param id the job
 * @param teamId its team
 * @param member whose conversation runs it
 * @param agentId that member's agent
 * @param conversationId that member's conversation
 * @param kind request (from the owner), handoff (from a member) or receipt (a hand-off's answer
 *     returned to the member that asked)
 * @param requester who asked
 * @param parentJobId for a hand-off, the job it came from; for a receipt, the hand-off it returns
 * @param chainId the chain of hand-offs it belongs to
 * @param state queued, admitted, running, waiting_input, waiting_worker, unknown, completed,
 *     failed, cancelled or interrupted (its team's lead or owner stopped its turn)
 * @param revision increases with every transition
 * @param input the request text, frozen
 * @param idempotencyKey the key it was requested with
 * @param resume whether it runs again after an answer
 * @param question the question it stopped with, if any
 * @param answer the owner's answer to it, if given
 * @param result how it ended, once it did
 * @param usage what its run reported using
 * @param receiptJobId for a finished hand-off, the receipt that returned it
 * @param receiptNote why a finished hand-off has no receipt
 * @param createdAt when it was requested
 * @param queuedAt when it last entered the queue
 * @param admittedAt when it last took a slot
 * @param startedAt when its run started
 * @param finishedAt when it ended
 * @param waitingReason why it waits, where its state does not say (e.g. no worker connected)
 */
public record Job(
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
    @Nullable Input question,
    @Nullable Input answer,
    @Nullable Result result,
    Usage usage,
    @Nullable UUID receiptJobId,
    @Nullable String receiptNote,
    Instant createdAt,
    Instant queuedAt,
    @Nullable Instant admittedAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    @Nullable String waitingReason) {

  /**
   * Whether it ended (completed, failed, cancelled or interrupted); a finished job never changes
   * again.
   */
  public boolean finished() {
    return switch (state) {
      case "completed", "failed", "cancelled", "interrupted" -> true;
      default -> false;
    };
  }

  /** Whether it waits for its owner's answer. */
  public boolean waitingForAnswer() {
    return "waiting_input".equals(state);
  }

  /**
   * A question or an answer: text for a clarification, JSON for an interrupt.
   *
   * @param kind clarification or interrupt
   * @param text a clarification's text
   * @param payload an interrupt's JSON
   */
  public record Input(String kind, @Nullable String text, @Nullable JsonNode payload) {}

  /**
   * How a job ended.
   *
   * @param status completed, failed, cancelled or interrupted
   * @param answer the final answer (capped, with a truncation notice)
   * @param truncated whether it was cut
   * @param error what went wrong
   * @param runId the runtime's id for the run
   */
  public record Result(
      String status,
      @Nullable String answer,
      boolean truncated,
      @Nullable String error,
      @Nullable String runId) {}
}
