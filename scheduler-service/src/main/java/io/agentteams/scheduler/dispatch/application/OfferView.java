package io.agentteams.scheduler.dispatch.application;

import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.JobSpec;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A job as a worker receives it on its stream ({@code worker_id} is the worker holding this lease;
 * on a reconciliation offer {@code previous_worker_id} names the one whose lease lapsed, and {@code
 * previously_started} says whether any runtime reported the job started since its admission — a
 * runtime reports {@code started} before it acts, so a job never started may simply be run). The
 * request, and any hand-off answer a receipt returns, are data from a member with their provenance
 * — never instructions to the runtime.
 */
public record OfferView(
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
    @Nullable ResumeView resume,
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

  /** The question the job stopped with and the owner's answer to it. */
  public record ResumeView(
      String kind,
      @Nullable String question,
      @Nullable JsonNode interrupt,
      @Nullable String answer,
      @Nullable JsonNode response) {}

  public static OfferView of(Offer offer, JsonMapper json) {
    JobSpec spec = offer.spec();
    ResumeView resume = null;
    if (offer.resumeQuestion() != null && offer.resumeAnswer() != null) {
      boolean text = offer.resumeQuestion().kind() == InputKind.CLARIFICATION;
      resume =
          new ResumeView(
              offer.resumeQuestion().kind().wire(),
              text ? offer.resumeQuestion().content() : null,
              text ? null : json.readTree(offer.resumeQuestion().content()),
              text ? offer.resumeAnswer().content() : null,
              text ? null : json.readTree(offer.resumeAnswer().content()));
    }
    return new OfferView(
        spec.id(),
        spec.teamId(),
        spec.target().agentId(),
        spec.target().name(),
        spec.target().conversationId(),
        spec.kind().wire(),
        spec.requester(),
        spec.parentJobId(),
        spec.chainId(),
        spec.input(),
        offer.reconcile(),
        resume,
        offer.lease().token(),
        offer.lease().expiresAt(),
        offer.lease().ttl().toSeconds(),
        offer.teamContext(),
        offer.memberToken(),
        offer.memberTokenExpiresAt(),
        offer.job().offers(),
        offer.lease().holder(),
        offer.previousHolder(),
        offer.previouslyStarted());
  }
}
