package io.agentteams.scheduler.job.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One directed request to one member's conversation, and its life: admission, leased dispatch,
 * questions and answers, and how it ended. Each transition checks the state, changes it, raises the
 * revision and returns the {@link JobChange} that others must learn of.
 *
 * <p>Reports from a runtime carry the lease token of the offer they answer; a token that is not the
 * current one is refused, so a runtime that lost its lease can never overwrite what a newer offer
 * decided. Reports are idempotent: repeating the last one changes nothing.
 */
public final class Job {

  private final JobSpec spec;
  private JobState state;
  private long revision;
  private long queuePosition;
  private Instant queuedAt;
  private boolean resume;
  private @Nullable Question question;
  private @Nullable Answer answer;
  private @Nullable Lease lease;
  private boolean reofferDue;
  private int offers;
  private int admissions;
  private @Nullable String admittedBy;
  private @Nullable Instant admittedAt;
  private @Nullable Instant startedAt;
  private @Nullable Instant finishedAt;
  private @Nullable Instant unknownSince;
  private @Nullable String runId;
  private @Nullable Outcome outcome;
  private Usage usage;
  private @Nullable UUID receiptJobId;
  private @Nullable String receiptNote;

  /** A job's whole state, as persistence stores and restores it. */
  public record Stored(
      JobSpec spec,
      JobState state,
      long revision,
      long queuePosition,
      Instant queuedAt,
      boolean resume,
      @Nullable Question question,
      @Nullable Answer answer,
      @Nullable Lease lease,
      boolean reofferDue,
      int offers,
      int admissions,
      @Nullable String admittedBy,
      @Nullable Instant admittedAt,
      @Nullable Instant startedAt,
      @Nullable Instant finishedAt,
      @Nullable Instant unknownSince,
      @Nullable String runId,
      @Nullable Outcome outcome,
      Usage usage,
      @Nullable UUID receiptJobId,
      @Nullable String receiptNote) {}

  private Job(Stored stored) {
    this.spec = Objects.requireNonNull(stored.spec());
    this.state = Objects.requireNonNull(stored.state());
    this.revision = stored.revision();
    this.queuePosition = stored.queuePosition();
    this.queuedAt = Objects.requireNonNull(stored.queuedAt());
    this.resume = stored.resume();
    this.question = stored.question();
    this.answer = stored.answer();
    this.lease = stored.lease();
    this.reofferDue = stored.reofferDue();
    this.offers = stored.offers();
    this.admissions = stored.admissions();
    this.admittedBy = stored.admittedBy();
    this.admittedAt = stored.admittedAt();
    this.startedAt = stored.startedAt();
    this.finishedAt = stored.finishedAt();
    this.unknownSince = stored.unknownSince();
    this.runId = stored.runId();
    this.outcome = stored.outcome();
    this.usage = Objects.requireNonNull(stored.usage());
    this.receiptJobId = stored.receiptJobId();
    this.receiptNote = stored.receiptNote();
  }

  /** A new job, queued at {@code queuePosition} of the admission queue. */
  public static Job create(JobSpec spec, long queuePosition) {
    return new Job(
        new Stored(
            spec,
            JobState.QUEUED,
            1,
            queuePosition,
            spec.createdAt(),
            false,
            null,
            null,
            null,
            false,
            0,
            0,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            Usage.NONE,
            null,
            null));
  }

  public static Job restore(Stored stored) {
    return new Job(stored);
  }

  public Stored stored() {
    return new Stored(
        spec,
        state,
        revision,
        queuePosition,
        queuedAt,
        resume,
        question,
        answer,
        lease,
        reofferDue,
        offers,
        admissions,
        admittedBy,
        admittedAt,
        startedAt,
        finishedAt,
        unknownSince,
        runId,
        outcome,
        usage,
        receiptJobId,
        receiptNote);
  }

  /** The change that announces a new job. */
  public JobChange created() {
    return new JobChange(spec.id(), null, JobState.QUEUED, 1);
  }

  // ---- admission and offers ----

  /** Takes a slot: queued to admitted. */
  public JobChange admit(String replica, Instant now) {
    if (state != JobState.QUEUED) {
      throw JobProblems.wrongState(id(), state, "be admitted");
    }
    admissions++;
    admittedBy = replica;
    admittedAt = now;
    lease = null;
    reofferDue = false;
    return transition(JobState.ADMITTED);
  }

  /** Whether a runtime may be offered this job now: admitted and unleased, or due a re-offer. */
  public boolean offerable() {
    return (state == JobState.ADMITTED && lease == null)
        || (state == JobState.UNKNOWN && reofferDue);
  }

  /**
   * Hands the job to a runtime under a new lease. Any older token stops being accepted.
   *
   * @return true when this is a reconciliation offer: the outcome of an earlier offer is unknown,
   *     and the runtime must answer from its own record rather than start blindly
   */
  public boolean offer(String token, Instant now, Duration ttl) {
    if (!offerable()) {
      throw JobProblems.wrongState(id(), state, "be offered");
    }
    boolean reconcile = state == JobState.UNKNOWN;
    lease = new Lease(token, now.plus(ttl), ttl);
    reofferDue = false;
    offers++;
    return reconcile;
  }

  // ---- reports from the runtime ----

  /** The runtime started the job (or, reconciling, says it is running it). */
  public @Nullable JobChange start(String token, @Nullable String reportedRunId, Instant now) {
    requireLease(token);
    switch (state) {
      case ADMITTED, UNKNOWN -> {
        return running(reportedRunId, now);
      }
      case RUNNING -> {
        renew(reportedRunId, now);
        return null;
      }
      default -> throw JobProblems.wrongState(id(), state, "start");
    }
  }

  /** The runtime is still at it; the lease is renewed. */
  public @Nullable JobChange heartbeat(String token, @Nullable String reportedRunId, Instant now) {
    requireLease(token);
    switch (state) {
      case ADMITTED, RUNNING -> {
        renew(reportedRunId, now);
        return null;
      }
      case UNKNOWN -> {
        return running(reportedRunId, now);
      }
      default -> throw JobProblems.wrongState(id(), state, "take a heartbeat");
    }
  }

  /** The run stopped with a question: the slot is released, the conversation stays held. */
  public @Nullable JobChange requireInput(
      String token, Question asked, @Nullable String reportedRunId, Instant now) {
    requireLease(token);
    if (state == JobState.WAITING_INPUT && asked.equals(question)) {
      return null;
    }
    if (!state.holdsSlot()) {
      throw JobProblems.wrongState(id(), state, "ask for input");
    }
    question = asked;
    answer = null;
    resume = false;
    reofferDue = false;
    unknownSince = null;
    setRunId(reportedRunId);
    if (startedAt == null) {
      startedAt = now;
    }
    return transition(JobState.WAITING_INPUT);
  }

  /** The run finished with an answer, kept within {@code maxBytes}. */
  public @Nullable JobChange complete(
      String token,
      String finalAnswer,
      int maxBytes,
      Usage used,
      @Nullable String reportedRunId,
      Instant now) {
    requireLease(token);
    if (state == JobState.COMPLETED) {
      return null;
    }
    if (!state.holdsSlot()) {
      throw JobProblems.wrongState(id(), state, "complete");
    }
    ResultText.Capped capped = ResultText.cap(finalAnswer, maxBytes);
    outcome = new Outcome(capped.text(), capped.truncated(), null);
    return ended(JobState.COMPLETED, used, reportedRunId, now);
  }

  /** The run failed; the error is kept within {@code maxBytes}. */
  public @Nullable JobChange fail(
      String token,
      String error,
      int maxBytes,
      Usage used,
      @Nullable String reportedRunId,
      Instant now) {
    requireLease(token);
    if (state == JobState.FAILED) {
      return null;
    }
    if (!state.holdsSlot()) {
      throw JobProblems.wrongState(id(), state, "fail");
    }
    ResultText.Capped capped = ResultText.cap(error, maxBytes);
    outcome = new Outcome(null, capped.truncated(), capped.text());
    return ended(JobState.FAILED, used, reportedRunId, now);
  }

  // ---- the owner ----

  /**
   * The owner answered the job's question: it queues again for a slot, still holding its
   * conversation. Repeating the same answer changes nothing.
   */
  public @Nullable JobChange answer(Answer given, long nextQueuePosition, Instant now) {
    if (state == JobState.WAITING_INPUT) {
      if (question == null || question.kind() != given.kind()) {
        throw JobProblems.answerKindMismatch(id(), question);
      }
      answer = given;
      resume = true;
      lease = null;
      queuePosition = nextQueuePosition;
      queuedAt = now;
      return transition(JobState.QUEUED);
    }
    if (resume && given.equals(answer) && !state.finished()) {
      return null;
    }
    throw JobProblems.wrongState(id(), state, "be answered");
  }

  /** The owner cancelled the job; cancelling twice changes nothing. */
  public @Nullable JobChange cancel(Instant now) {
    if (state == JobState.CANCELLED) {
      return null;
    }
    if (state.finished()) {
      throw JobProblems.wrongState(id(), state, "be cancelled");
    }
    outcome = new Outcome(null, false, "cancelled by the owner");
    return ended(JobState.CANCELLED, Usage.NONE, null, now);
  }

  // ---- the sweeper ----

  /**
   * Applies a lapsed lease: an admitted or running job becomes unknown, holding its slot, and is
   * due a reconciliation offer; an unknown job whose reconciliation offer lapsed is due another.
   * The current token stays valid until the next offer, so the runtime that held it can still
   * settle the job from its own record.
   */
  public @Nullable JobChange expireLease(Instant now) {
    if (lease == null || !lease.expiredAt(now)) {
      return null;
    }
    switch (state) {
      case ADMITTED, RUNNING -> {
        reofferDue = true;
        unknownSince = now;
        return transition(JobState.UNKNOWN);
      }
      case UNKNOWN -> {
        reofferDue = true;
        return null;
      }
      default -> {
        return null;
      }
    }
  }

  /** Whether {@link #expireLease} would change anything now. */
  public boolean leaseLapsed(Instant now) {
    return lease != null
        && lease.expiredAt(now)
        && (state == JobState.ADMITTED
            || state == JobState.RUNNING
            || (state == JobState.UNKNOWN && !reofferDue));
  }

  /**
   * Settles a job whose outcome stayed unknown for longer than {@code timeout}: it fails with a
   * reason that says so. It is neither marked completed nor run again.
   */
  public @Nullable JobChange giveUpUnknown(Instant now, Duration timeout) {
    if (state != JobState.UNKNOWN
        || unknownSince == null
        || unknownSince.plus(timeout).isAfter(now)) {
      return null;
    }
    outcome =
        new Outcome(
            null,
            false,
            "outcome unknown: the lease lapsed at "
                + unknownSince
                + " and no runtime settled the job within "
                + timeout
                + "; marked failed without being run again");
    return ended(JobState.FAILED, Usage.NONE, null, now);
  }

  /** Refuses a queued job at admission, for example because its budget is used up. */
  public JobChange refuse(String reason, Instant now) {
    if (state != JobState.QUEUED) {
      throw JobProblems.wrongState(id(), state, "be refused");
    }
    outcome = new Outcome(null, false, reason);
    return ended(JobState.FAILED, Usage.NONE, null, now);
  }

  // ---- receipts ----

  /** Whether this is a finished hand-off whose answer has not yet been returned. */
  public boolean needsReceipt() {
    return spec.kind() == JobKind.HANDOFF
        && (state == JobState.COMPLETED || state == JobState.FAILED)
        && receiptJobId == null
        && receiptNote == null;
  }

  /**
   * The receipt that returns this hand-off's answer to the member that asked, in a later turn of
   * that member's conversation.
   */
  public JobSpec receiptSpec(UUID receiptId, Instant now) {
    if (!needsReceipt()) {
      throw new IllegalStateException("job " + id() + " needs no receipt");
    }
    MemberRef requesterRef = Objects.requireNonNull(spec.requesterRef());
    Outcome ended = Objects.requireNonNull(outcome);
    String text = state == JobState.COMPLETED ? ended.text() : "failed: " + ended.text();
    return new JobSpec(
        receiptId,
        spec.teamId(),
        spec.ownerId(),
        requesterRef,
        JobKind.RECEIPT,
        spec.target().name(),
        null,
        id(),
        spec.chainId(),
        text,
        null,
        null,
        now);
  }

  public void receiptCreated(UUID receipt) {
    receiptJobId = receipt;
  }

  /** The receipt could not be created; the note says why (e.g. the team's receipt limit). */
  public void receiptRefused(String note) {
    receiptNote = note;
  }

  // ---- internals ----

  private void requireLease(String token) {
    if (lease == null || !lease.token().equals(token)) {
      throw JobProblems.staleLease(id());
    }
  }

  private JobChange running(@Nullable String reportedRunId, Instant now) {
    renew(reportedRunId, now);
    reofferDue = false;
    unknownSince = null;
    if (startedAt == null) {
      startedAt = now;
    }
    return transition(JobState.RUNNING);
  }

  private void renew(@Nullable String reportedRunId, Instant now) {
    lease = Objects.requireNonNull(lease).renewedAt(now);
    setRunId(reportedRunId);
  }

  private void setRunId(@Nullable String reportedRunId) {
    if (reportedRunId != null && !reportedRunId.isBlank()) {
      runId = reportedRunId;
    }
  }

  private JobChange ended(JobState to, Usage used, @Nullable String reportedRunId, Instant now) {
    usage = used;
    setRunId(reportedRunId);
    finishedAt = now;
    reofferDue = false;
    unknownSince = null;
    return transition(to);
  }

  private JobChange transition(JobState to) {
    JobState from = state;
    state = to;
    revision++;
    return new JobChange(spec.id(), from, to, revision);
  }

  // ---- reading ----

  public UUID id() {
    return spec.id();
  }

  public JobSpec spec() {
    return spec;
  }

  public JobState state() {
    return state;
  }

  public long revision() {
    return revision;
  }

  public long queuePosition() {
    return queuePosition;
  }

  public Instant queuedAt() {
    return queuedAt;
  }

  public boolean resume() {
    return resume;
  }

  public @Nullable Question question() {
    return question;
  }

  public @Nullable Answer answerGiven() {
    return answer;
  }

  public @Nullable Lease lease() {
    return lease;
  }

  public boolean reofferDue() {
    return reofferDue;
  }

  public int offers() {
    return offers;
  }

  public int admissions() {
    return admissions;
  }

  public @Nullable Instant admittedAt() {
    return admittedAt;
  }

  public @Nullable Instant startedAt() {
    return startedAt;
  }

  public @Nullable Instant finishedAt() {
    return finishedAt;
  }

  public @Nullable Instant unknownSince() {
    return unknownSince;
  }

  public @Nullable String runId() {
    return runId;
  }

  public @Nullable Outcome outcome() {
    return outcome;
  }

  public Usage usage() {
    return usage;
  }

  public @Nullable UUID receiptJobId() {
    return receiptJobId;
  }

  public @Nullable String receiptNote() {
    return receiptNote;
  }

  /** Whether the runtime of this agent and owner may see and report on this job. */
  public boolean runsOn(String owner, String agent) {
    return spec.ownerId().equals(owner) && spec.target().agentId().equals(agent);
  }
}
