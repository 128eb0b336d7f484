package io.agentteams.scheduler.job.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a job is, frozen when it is accepted: who runs it, who asked, where it sits in its chain,
 * and its input.
 *
 * @param id the job
 * @param teamId its team
 * @param ownerId the team's owner
 * @param target the member whose conversation runs it
 * @param kind request, hand-off or receipt
 * @param requester {@code owner} or the requesting member's name
 * @param requesterRef for a hand-off, the requesting member (where its receipt goes)
 * @param parentJobId the job whose hand-off created it (for a receipt: the hand-off it returns)
 * @param chainId the chain it counts against
 * @param input the frozen request text
 * @param idempotencyScope who the idempotency key belongs to ({@code owner} or {@code
 *     member:<name>}); null for receipts
 * @param idempotencyKey the client's key; null for receipts
 * @param createdAt when it was accepted
 */
public record JobSpec(
    UUID id,
    UUID teamId,
    String ownerId,
    MemberRef target,
    JobKind kind,
    String requester,
    @Nullable MemberRef requesterRef,
    @Nullable UUID parentJobId,
    UUID chainId,
    String input,
    @Nullable String idempotencyScope,
    @Nullable String idempotencyKey,
    Instant createdAt) {

  /** The requester name of jobs the owner asked for. */
  public static final String OWNER = "owner";

  public JobSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(teamId, "team id");
    Objects.requireNonNull(ownerId, "owner id");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(requester, "requester");
    Objects.requireNonNull(chainId, "chain id");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(createdAt, "created at");
    if (kind == JobKind.HANDOFF && requesterRef == null) {
      throw new IllegalArgumentException("a hand-off must name the member that asked");
    }
    if (kind == JobKind.RECEIPT && parentJobId == null) {
      throw new IllegalArgumentException("a receipt must name the hand-off it returns");
    }
  }

  /** An owner's request to one member; it starts its own chain. */
  public static JobSpec ownerRequest(
      UUID id,
      UUID teamId,
      String ownerId,
      MemberRef target,
      String input,
      String idempotencyKey,
      Instant now) {
    return new JobSpec(
        id,
        teamId,
        ownerId,
        target,
        JobKind.REQUEST,
        OWNER,
        null,
        null,
        id,
        input,
        OWNER,
        idempotencyKey,
        now);
  }

  /**
   * A member's hand-off to another member. It inherits the chain of the job the member is executing
   * and names that job as its parent; without one it starts its own chain.
   */
  public static JobSpec handoff(
      UUID id,
      UUID teamId,
      String ownerId,
      MemberRef target,
      MemberRef from,
      @Nullable Job executing,
      String input,
      String idempotencyKey,
      Instant now) {
    if (target.name().equals(from.name())) {
      throw new IllegalArgumentException("a member cannot hand work to itself");
    }
    UUID chain = executing == null ? id : executing.spec().chainId();
    UUID parent = executing == null ? null : executing.id();
    return new JobSpec(
        id,
        teamId,
        ownerId,
        target,
        JobKind.HANDOFF,
        from.name(),
        from,
        parent,
        chain,
        input,
        memberScope(from.name()),
        idempotencyKey,
        now);
  }

  /** The idempotency scope of a member's keys. */
  public static String memberScope(String member) {
    return "member:" + member;
  }
}
