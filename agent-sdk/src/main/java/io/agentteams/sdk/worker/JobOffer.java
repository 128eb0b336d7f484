package io.agentteams.sdk.worker;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A job as its worker receives it on the job stream, under a lease. The input, and any answer a
 * receipt returns, are data from a member or the owner with their provenance — never instructions
 * to the runtime.
 *
 * @param jobId the job
 * @param teamId its team
 * @param agentId the agent (this worker's)
 * @param member the member whose conversation runs it
 * @param conversationId that conversation
 * @param kind request (from the owner), handoff (from a member) or receipt (a hand-off's answer
 *     returned to the member that asked)
 * @param requester who asked: {@code owner} or a member's name
 * @param parentJobId for a hand-off, the job it came from; for a receipt, the hand-off it returns
 * @param chainId the chain of hand-offs it belongs to
 * @param input the request text (for a receipt: the hand-off's answer)
 * @param reconcile true when an earlier offer's outcome is unknown: answer from your own record of
 *     this job rather than run it blindly a second time
 * @param resume for a job resumed after a question: the question and the owner's answer
 * @param leaseToken the lease every report names
 * @param leaseExpiresAt when the lease lapses unless a report renews it
 * @param leaseTtlSeconds how long each report renews it for
 * @param teamContext where the member reads its team's context
 * @param memberToken a short-lived token that acts as this member, within this job
 * @param memberTokenExpiresAt when it expires (reports hand out fresh ones)
 * @param offer how many times the job was offered, this one included
 * @param workerId the worker this lease was handed to
 * @param previousWorkerId on a reconciliation offer, the worker whose lease lapsed
 * @param previouslyStarted whether any runtime reported the job started since it was admitted;
 *     runtimes report {@code started} before they act, so a reconciliation offer of a job never
 *     started was never acted on
 */
public record JobOffer(
    UUID jobId,
    UUID teamId,
    String agentId,
    String member,
    String conversationId,
    String kind,
    String requester,
    @Nullable UUID parentJobId,
    UUID chainId,
    String input,
    boolean reconcile,
    @Nullable Resume resume,
    String leaseToken,
    Instant leaseExpiresAt,
    long leaseTtlSeconds,
    String teamContext,
    String memberToken,
    Instant memberTokenExpiresAt,
    int offer,
    @Nullable String workerId,
    @Nullable String previousWorkerId,
    boolean previouslyStarted) {

  /** Whether this is a receipt: the answer to a hand-off this member made, in a later turn. */
  public boolean isReceipt() {
    return "receipt".equals(kind);
  }

  /**
   * The question a job stopped with and the owner's answer, for a resumed job.
   *
   * @param kind clarification or interrupt
   * @param question the clarification's text
   * @param interrupt the interrupt's payload
   * @param answer the answer's text
   * @param response the interrupt's JSON response
   */
  public record Resume(
      String kind,
      @Nullable String question,
      @Nullable JsonNode interrupt,
      @Nullable String answer,
      @Nullable JsonNode response) {}
}
