package io.agentteams.scheduler.job.domain;

import io.agentteams.scheduler.budget.domain.Spender;
import io.agentteams.scheduler.budget.domain.Usage;
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
 *
 * <p>Its size is one cohesive aggregate's: every transition of a job's life guards the same state
 * and revision, so they stay together rather than spread over classes that would each see half of
 * it.
 */
public final class Job {

  /** The job's whole state: each transition replaces it, persistence stores and restores it. */
  private Stored stored;

  /**
   * A job's whole state, as persistence stores and restores it.
   *
   * @param spec what was asked of whom, fixed at creation
   * @param state where the job is in its life
   * @param revision raised by every transition
   * @param queue its place in the admission queue and the conversation's open question
   * @param dispatch its admissions and offers
   * @param run what the runtime reported and how the job ended
   * @param receipt the receipt that returned a hand-off's answer, or why there is none
   */
  public record Stored(
      JobSpec spec,
      JobState state,
      long revision,
      Queueing queue,
      Dispatch dispatch,
      Run run,
      Receipt receipt) {

    public Stored {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(queue, "queue");
      Objects.requireNonNull(dispatch, "dispatch");
      Objects.requireNonNull(run, "run");
      Objects.requireNonNull(receipt, "receipt");
    }

    /** In state {@code to}, one revision later. */
    Stored moved(JobState to) {
      return new Stored(spec, to, revision + 1, queue, dispatch, run, receipt);
    }

    Stored with(Queueing changed) {
      return new Stored(spec, state, revision, changed, dispatch, run, receipt);
    }

    Stored with(Dispatch changed) {
      return new Stored(spec, state, revision, queue, changed, run, receipt);
    }

    Stored with(Run changed) {
      return new Stored(spec, state, revision, queue, dispatch, changed, receipt);
    }

    Stored with(Receipt changed) {
      return new Stored(spec, state, revision, queue, dispatch, run, changed);
    }
  }

  /**
   * The job's place in the admission queue, and the conversation's open question.
   *
   * @param position its place in the queue
   * @param queuedAt when it (last) joined the queue
   * @param resume whether it resumes a conversation that asked a question
   * @param question what the run asked, if it is waiting for input
   * @param answer what the owner answered
   */
  public record Queueing(
      long position,
      Instant queuedAt,
      boolean resume,
      @Nullable Question question,
      @Nullable Answer answer) {

    public Queueing {
      Objects.requireNonNull(queuedAt, "queued at");
    }

    Queueing asked(Question asked) {
      return new Queueing(position, queuedAt, false, asked, null);
    }

    /** Answered: the job queues again at {@code next}, to resume its conversation. */
    Queueing answered(Answer given, long next, Instant now) {
      return new Queueing(next, now, true, question, given);
    }
  }

  /**
   * The job's admissions and offers.
   *
   * @param lease the current offer's lease, if any
   * @param reofferDue whether an unknown outcome waits for a reconciliation offer
   * @param offers how many offers were made
   * @param admissions how many times it took a slot
   * @param admittedBy the replica that last admitted it
   * @param admittedAt when it was last admitted
   */
  public record Dispatch(
      @Nullable Lease lease,
      boolean reofferDue,
      int offers,
      int admissions,
      @Nullable String admittedBy,
      @Nullable Instant admittedAt) {

    static final Dispatch NONE = new Dispatch(null, false, 0, 0, null, null);

    Dispatch admitted(String replica, Instant now) {
      return new Dispatch(null, false, offers, admissions + 1, replica, now);
    }

    Dispatch offered(Lease offered) {
      return new Dispatch(offered, false, offers + 1, admissions, admittedBy, admittedAt);
    }

    Dispatch renewed(Instant now) {
      Lease renewed = Objects.requireNonNull(lease).renewedAt(now);
      return new Dispatch(renewed, reofferDue, offers, admissions, admittedBy, admittedAt);
    }

    Dispatch lapsingAt(Instant at) {
      Lease lapsing = Objects.requireNonNull(lease).lapsingAt(at);
      return new Dispatch(lapsing, false, offers, admissions, admittedBy, admittedAt);
    }

    Dispatch unleased() {
      return new Dispatch(null, reofferDue, offers, admissions, admittedBy, admittedAt);
    }

    Dispatch reofferDue(boolean due) {
      return new Dispatch(lease, due, offers, admissions, admittedBy, admittedAt);
    }
  }

  /**
   * What the runtime reported and how the job ended.
   *
   * @param startedAt when a run first started
   * @param finishedAt when the job ended
   * @param unknownSince when its outcome became unknown, while it is
   * @param runId the runtime's own id of the run
   * @param outcome how it ended
   * @param usage what the run used
   */
  public record Run(
      @Nullable Instant startedAt,
      @Nullable Instant finishedAt,
      @Nullable Instant unknownSince,
      @Nullable String runId,
      @Nullable Outcome outcome,
      Usage usage) {

    static final Run NONE = new Run(null, null, null, null, null, Usage.NONE);

    public Run {
      Objects.requireNonNull(usage, "usage");
    }

    /** Running, or asking, as the runtime reports at {@code now}: no longer unknown. */
    Run reported(@Nullable String reportedRunId, Instant now) {
      Instant started = startedAt == null ? now : startedAt;
      return new Run(started, finishedAt, null, reportedOr(reportedRunId), outcome, usage);
    }

    /** The runtime's run id, when it reports one. */
    Run withRunId(@Nullable String reportedRunId) {
      return new Run(
          startedAt, finishedAt, unknownSince, reportedOr(reportedRunId), outcome, usage);
    }

    Run unknownSince(Instant since) {
      return new Run(startedAt, finishedAt, since, runId, outcome, usage);
    }

    Run ended(Outcome how, Usage used, @Nullable String reportedRunId, Instant now) {
      return new Run(startedAt, now, null, reportedOr(reportedRunId), how, usage.atLeast(used));
    }

    Run using(Usage used) {
      return new Run(startedAt, finishedAt, unknownSince, runId, outcome, usage.atLeast(used));
    }

    private @Nullable String reportedOr(@Nullable String reportedRunId) {
      return reportedRunId != null && !reportedRunId.isBlank() ? reportedRunId : runId;
    }
  }

  /**
   * The receipt that returned a hand-off's answer, or why there is none.
   *
   * @param jobId the receipt job
   * @param note why no receipt could be created
   */
  public record Receipt(@Nullable UUID jobId, @Nullable String note) {

    static final Receipt NONE = new Receipt(null, null);
  }

  private Job(Stored stored) {
    this.stored = Objects.requireNonNull(stored);
  }

  /** A new job, queued at {@code queuePosition} of the admission queue. */
  public static Job create(JobSpec spec, long queuePosition) {
    Queueing queued = new Queueing(queuePosition, spec.createdAt(), false, null, null);
    return new Job(
        new Stored(spec, JobState.QUEUED, 1, queued, Dispatch.NONE, Run.NONE, Receipt.NONE));
  }

  public static Job restore(Stored stored) {
    return new Job(stored);
  }

  public Stored stored() {
    return stored;
  }

  /** The change that announces a new job. */
  public JobChange created() {
    return new JobChange(spec().id(), null, JobState.QUEUED, 1);
  }

  // ---- admission and offers ----

  /** Takes a slot: queued to admitted. */
  public JobChange admit(String replica, Instant now) {
    if (state() != JobState.QUEUED) {
      throw JobProblems.wrongState(id(), state(), "be admitted");
    }
    stored = stored.with(stored.dispatch().admitted(replica, now));
    return transition(JobState.ADMITTED);
  }

  /** Whether a runtime may be offered this job now: admitted and unleased, or due a re-offer. */
  public boolean offerable() {
    return (state() == JobState.ADMITTED && lease() == null)
        || (state() == JobState.UNKNOWN && reofferDue());
  }

  /**
   * Hands the job to a runtime under a new lease. Any older token stops being accepted.
   *
   * @return true when this is a reconciliation offer: the outcome of an earlier offer is unknown,
   *     and the runtime must answer from its own record rather than start blindly
   */
  public boolean offer(String token, Instant now, Duration ttl) {
    return offer(token, now, ttl, null);
  }

  /** Like {@link #offer(String, Instant, Duration)}, naming the worker the lease is handed to. */
  public boolean offer(String token, Instant now, Duration ttl, @Nullable String holder) {
    if (!offerable()) {
      throw JobProblems.wrongState(id(), state(), "be offered");
    }
    boolean reconcile = state() == JobState.UNKNOWN;
    stored = stored.with(stored.dispatch().offered(new Lease(token, now.plus(ttl), ttl, holder)));
    return reconcile;
  }

  // ---- reports from the runtime ----

  /** The runtime started the job (or, reconciling, says it is running it). */
  public @Nullable JobChange start(String token, @Nullable String reportedRunId, Instant now) {
    requireLease(token);
    switch (state()) {
      case ADMITTED, UNKNOWN -> {
        return running(reportedRunId, now);
      }
      case RUNNING -> {
        renew(reportedRunId, now);
        return null;
      }
      default -> throw JobProblems.wrongState(id(), state(), "start");
    }
  }

  /** The runtime is still at it; the lease is renewed. */
  public @Nullable JobChange heartbeat(String token, @Nullable String reportedRunId, Instant now) {
    requireLease(token);
    switch (state()) {
      case ADMITTED, RUNNING -> {
        renew(reportedRunId, now);
        return null;
      }
      case UNKNOWN -> {
        return running(reportedRunId, now);
      }
      default -> throw JobProblems.wrongState(id(), state(), "take a heartbeat");
    }
  }

  /** The run stopped with a question: the slot is released, the conversation stays held. */
  public @Nullable JobChange requireInput(
      String token, Question asked, @Nullable String reportedRunId, Instant now) {
    requireLease(token);
    if (state() == JobState.WAITING_INPUT && asked.equals(question())) {
      return null;
    }
    if (!state().holdsSlot()) {
      throw JobProblems.wrongState(id(), state(), "ask for input");
    }
    stored =
        stored
            .with(stored.queue().asked(asked))
            .with(stored.dispatch().reofferDue(false))
            .with(stored.run().reported(reportedRunId, now));
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
    if (state() == JobState.COMPLETED) {
      return null;
    }
    if (!state().holdsSlot()) {
      throw JobProblems.wrongState(id(), state(), "complete");
    }
    ResultText.Capped capped = ResultText.cap(finalAnswer, maxBytes);
    Outcome answered = new Outcome(capped.text(), capped.truncated(), null);
    return ended(JobState.COMPLETED, answered, used, reportedRunId, now);
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
    if (state() == JobState.FAILED) {
      return null;
    }
    if (!state().holdsSlot()) {
      throw JobProblems.wrongState(id(), state(), "fail");
    }
    ResultText.Capped capped = ResultText.cap(error, maxBytes);
    Outcome failed = new Outcome(null, capped.truncated(), capped.text());
    return ended(JobState.FAILED, failed, used, reportedRunId, now);
  }

  /**
   * The runtime gives the job back, for example because it is shutting down. A job it never started
   * is offered again as it is; a started one is left for reconciliation (its outcome is for the
   * next runtime to settle from its record), exactly as if the lease had lapsed, but at once. The
   * token stays valid until the next offer. Releasing twice changes nothing.
   */
  public @Nullable JobChange release(String token, Instant now) {
    requireLease(token);
    switch (state()) {
      case ADMITTED -> {
        stored = stored.with(stored.dispatch().unleased());
        return null;
      }
      case RUNNING -> {
        stored =
            stored.with(stored.dispatch().reofferDue(true)).with(stored.run().unknownSince(now));
        return transition(JobState.UNKNOWN);
      }
      case UNKNOWN -> {
        stored = stored.with(stored.dispatch().reofferDue(true));
        return null;
      }
      default -> throw JobProblems.wrongState(id(), state(), "be released");
    }
  }

  // ---- schedule-to-start ----

  /**
   * No runtime took the job's offer within {@code timeout} of its admission: it gives its slot back
   * and waits for a worker, keeping its conversation's head and its queue position. A job that was
   * offered is never affected (its lease decides), so nothing can run twice.
   */
  public @Nullable JobChange returnUntaken(Instant now, Duration timeout) {
    Instant admittedAt = admittedAt();
    if (state() != JobState.ADMITTED
        || lease() != null
        || admittedAt == null
        || admittedAt.plus(timeout).isAfter(now)) {
      return null;
    }
    return transition(JobState.WAITING_WORKER);
  }

  /** A worker of the job's agent can take it: it queues again at the position it had. */
  public @Nullable JobChange workerAvailable() {
    if (state() != JobState.WAITING_WORKER) {
      return null;
    }
    return transition(JobState.QUEUED);
  }

  // ---- push runtimes ----

  /**
   * A push runtime is about to send the job it holds under this lease (again): the lease is renewed
   * so that it covers the attempt. Changes no state.
   */
  public void extendLease(String token, Instant now) {
    requireLease(token);
    if (!state().holdsSlot()) {
      throw JobProblems.wrongState(id(), state(), "be pushed");
    }
    stored = stored.with(stored.dispatch().renewed(now));
  }

  /**
   * A push left but no answer came back in time, so whether the agent took the job is unknown. The
   * job keeps its slot as {@code unknown}; the lease stays valid (the agent's own late report still
   * settles the job) and lapses at {@code reconcileAt}, when a reconciliation offer asks the agent
   * again under the same idempotency key. A job a report already moved on is left alone.
   */
  public @Nullable JobChange pushOutcomeUnknown(String token, Instant now, Instant reconcileAt) {
    requireLease(token);
    switch (state()) {
      case ADMITTED, RUNNING -> {
        stored =
            stored
                .with(stored.dispatch().lapsingAt(reconcileAt))
                .with(stored.run().unknownSince(now));
        return transition(JobState.UNKNOWN);
      }
      case UNKNOWN -> {
        stored = stored.with(stored.dispatch().lapsingAt(reconcileAt));
        return null;
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * The agent's runtime ended the job as cancelled (an A2A task the agent reports canceled); the
   * reason is kept within {@code maxBytes}. Repeating it changes nothing.
   */
  public @Nullable JobChange cancelledByRuntime(
      String token, String reason, int maxBytes, Instant now) {
    requireLease(token);
    if (state() == JobState.CANCELLED) {
      return null;
    }
    if (state().finished() || state() == JobState.QUEUED) {
      throw JobProblems.wrongState(id(), state(), "be cancelled by its runtime");
    }
    ResultText.Capped capped = ResultText.cap(reason, maxBytes);
    Outcome cancelled = new Outcome(null, capped.truncated(), capped.text());
    return ended(JobState.CANCELLED, cancelled, Usage.NONE, null, now);
  }

  // ---- the owner ----

  /**
   * The owner answered the job's question: it queues again for a slot, still holding its
   * conversation. Repeating the same answer changes nothing, whatever became of the job since.
   */
  public @Nullable JobChange answer(Answer given, long nextQueuePosition, Instant now) {
    if (state() == JobState.WAITING_INPUT) {
      Question question = question();
      if (question == null || question.kind() != given.kind()) {
        throw JobProblems.answerKindMismatch(id(), question);
      }
      stored =
          stored
              .with(stored.queue().answered(given, nextQueuePosition, now))
              .with(stored.dispatch().unleased());
      return transition(JobState.QUEUED);
    }
    // A retry of the answer that resumed the job changes nothing, even once the job has ended: a
    // client whose first answer's response was lost must not be told it conflicts.
    if (resume() && given.equals(answerGiven())) {
      return null;
    }
    throw JobProblems.wrongState(id(), state(), "be answered");
  }

  /** The owner cancelled the job; cancelling twice changes nothing. */
  public @Nullable JobChange cancel(Instant now) {
    if (state() == JobState.CANCELLED) {
      return null;
    }
    if (state().finished()) {
      throw JobProblems.wrongState(id(), state(), "be cancelled");
    }
    Outcome cancelled = new Outcome(null, false, "cancelled by the owner");
    return ended(JobState.CANCELLED, cancelled, Usage.NONE, null, now);
  }

  /**
   * The team's lead (or its owner) stops the job's turn: it ends {@code interrupted} with {@code
   * reason}, releasing its slot and its conversation. Its lease stays as it was, so a runtime's
   * late report names a current token and is refused as a report on an ended job. Interrupting
   * twice changes nothing; a job with no turn under way (queued, waiting for a worker, admitted but
   * not yet taken by any runtime) or already ended cannot be interrupted: only cancelled.
   */
  public @Nullable JobChange interrupt(String reason, Instant now) {
    if (state() == JobState.INTERRUPTED) {
      return null;
    }
    if (!state().interruptible()) {
      throw JobProblems.wrongState(id(), state(), "be interrupted");
    }
    if (state() == JobState.ADMITTED && lease() == null) {
      throw JobProblems.wrongState(
          id(), state(), "be interrupted: no runtime has taken it, so no turn is under way");
    }
    Outcome interrupted = new Outcome(null, false, reason);
    return ended(JobState.INTERRUPTED, interrupted, Usage.NONE, null, now);
  }

  // ---- the sweeper ----

  /**
   * Applies a lapsed lease: an admitted or running job becomes unknown, holding its slot, and is
   * due a reconciliation offer; an unknown job whose reconciliation offer lapsed is due another.
   * The current token stays valid until the next offer, so the runtime that held it can still
   * settle the job from its own record.
   */
  public @Nullable JobChange expireLease(Instant now) {
    Lease lease = lease();
    if (lease == null || !lease.expiredAt(now)) {
      return null;
    }
    switch (state()) {
      case ADMITTED, RUNNING -> {
        stored =
            stored.with(stored.dispatch().reofferDue(true)).with(stored.run().unknownSince(now));
        return transition(JobState.UNKNOWN);
      }
      case UNKNOWN -> {
        stored = stored.with(stored.dispatch().reofferDue(true));
        return null;
      }
      default -> {
        return null;
      }
    }
  }

  /** Whether {@link #expireLease} would change anything now. */
  public boolean leaseLapsed(Instant now) {
    Lease lease = lease();
    return lease != null
        && lease.expiredAt(now)
        && (state() == JobState.ADMITTED
            || state() == JobState.RUNNING
            || (state() == JobState.UNKNOWN && !reofferDue()));
  }

  /**
   * Settles a job whose outcome stayed unknown for longer than {@code timeout}: it fails with a
   * reason that says so. It is neither marked completed nor run again.
   */
  public @Nullable JobChange giveUpUnknown(Instant now, Duration timeout) {
    Instant unknownSince = unknownSince();
    if (state() != JobState.UNKNOWN
        || unknownSince == null
        || unknownSince.plus(timeout).isAfter(now)) {
      return null;
    }
    Outcome givenUp =
        new Outcome(
            null,
            false,
            "outcome unknown: the lease lapsed at "
                + unknownSince
                + " and no runtime settled the job within "
                + timeout
                + "; marked failed without being run again");
    return ended(JobState.FAILED, givenUp, Usage.NONE, null, now);
  }

  /**
   * The runtime reports what the job has used so far. Usage only grows: a report carries the total,
   * so a repeated or late report changes nothing. Ignored once the job has ended.
   */
  public void reportUsage(Usage used) {
    if (!state().finished()) {
      stored = stored.with(stored.run().using(used));
    }
  }

  /**
   * A budget has no room for what the running job reports: it fails with the reason, and its lease
   * ends with it, so the runtime's next report is refused and the turn stops.
   */
  public @Nullable JobChange stopForBudget(String reason, Instant now) {
    if (!state().holdsSlot() && state() != JobState.WAITING_INPUT) {
      return null;
    }
    return ended(JobState.FAILED, new Outcome(null, false, reason), Usage.NONE, null, now);
  }

  /** Refuses a queued job at admission, for example because its budget is used up. */
  public JobChange refuse(String reason, Instant now) {
    if (state() != JobState.QUEUED) {
      throw JobProblems.wrongState(id(), state(), "be refused");
    }
    return ended(JobState.FAILED, new Outcome(null, false, reason), Usage.NONE, null, now);
  }

  // ---- receipts ----

  /** Whether this is a finished hand-off whose answer has not yet been returned. */
  public boolean needsReceipt() {
    return spec().kind() == JobKind.HANDOFF
        && (state() == JobState.COMPLETED || state() == JobState.FAILED)
        && receiptJobId() == null
        && receiptNote() == null;
  }

  /**
   * The receipt that returns this hand-off's answer to the member that asked, in a later turn of
   * that member's conversation.
   */
  public JobSpec receiptSpec(UUID receiptId, Instant now) {
    if (!needsReceipt()) {
      throw new IllegalStateException("job " + id() + " needs no receipt");
    }
    JobSpec spec = spec();
    MemberRef requesterRef = Objects.requireNonNull(spec.requesterRef());
    Outcome ended = Objects.requireNonNull(outcome());
    String text = state() == JobState.COMPLETED ? ended.text() : "failed: " + ended.text();
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
    stored = stored.with(new Receipt(receipt, receiptNote()));
  }

  /** The receipt could not be created; the note says why (e.g. the team's receipt limit). */
  public void receiptRefused(String note) {
    stored = stored.with(new Receipt(receiptJobId(), note));
  }

  // ---- job-scoped member tokens ----

  /**
   * Whether {@code token} is the job's current lease and the job is not over: only then may a
   * job-scoped member token be handed out under it.
   */
  public boolean heldUnder(String token) {
    Lease lease = lease();
    return lease != null && lease.token().equals(token) && !state().finished();
  }

  /**
   * The number of the offer whose lease {@code token} is, which a job-scoped member token minted
   * under it names. Numbers only grow (each offer takes the next), so a lease that stopped being
   * the job's current one never becomes it again.
   *
   * @throws io.agentteams.platform.problem.DomainFailure stale-lease unless the job is {@link
   *     #heldUnder(String) held under} {@code token}
   */
  public int leaseNumber(String token) {
    if (!heldUnder(token)) {
      throw JobProblems.staleLease(id());
    }
    return offers();
  }

  /** Whether offer {@code lease}'s lease is the job's current one and the job is not over. */
  public boolean liveUnder(int lease) {
    return lease() != null && offers() == lease && !state().finished();
  }

  // ---- internals ----

  private void requireLease(String token) {
    Lease lease = lease();
    if (lease == null || !lease.token().equals(token)) {
      throw JobProblems.staleLease(id());
    }
  }

  private JobChange running(@Nullable String reportedRunId, Instant now) {
    stored =
        stored
            .with(stored.dispatch().renewed(now).reofferDue(false))
            .with(stored.run().reported(reportedRunId, now));
    return transition(JobState.RUNNING);
  }

  private void renew(@Nullable String reportedRunId, Instant now) {
    stored =
        stored.with(stored.dispatch().renewed(now)).with(stored.run().withRunId(reportedRunId));
  }

  private JobChange ended(
      JobState to, Outcome how, Usage used, @Nullable String reportedRunId, Instant now) {
    stored =
        stored
            .with(stored.dispatch().reofferDue(false))
            .with(stored.run().ended(how, used, reportedRunId, now));
    return transition(to);
  }

  private JobChange transition(JobState to) {
    JobState from = state();
    stored = stored.moved(to);
    return new JobChange(id(), from, to, revision());
  }

  // ---- reading ----

  public UUID id() {
    return stored.spec().id();
  }

  public JobSpec spec() {
    return stored.spec();
  }

  public JobState state() {
    return stored.state();
  }

  public long revision() {
    return stored.revision();
  }

  public long queuePosition() {
    return stored.queue().position();
  }

  public Instant queuedAt() {
    return stored.queue().queuedAt();
  }

  public boolean resume() {
    return stored.queue().resume();
  }

  public @Nullable Question question() {
    return stored.queue().question();
  }

  public @Nullable Answer answerGiven() {
    return stored.queue().answer();
  }

  public @Nullable Lease lease() {
    return stored.dispatch().lease();
  }

  public boolean reofferDue() {
    return stored.dispatch().reofferDue();
  }

  public int offers() {
    return stored.dispatch().offers();
  }

  public int admissions() {
    return stored.dispatch().admissions();
  }

  public @Nullable Instant admittedAt() {
    return stored.dispatch().admittedAt();
  }

  public @Nullable Instant startedAt() {
    return stored.run().startedAt();
  }

  public @Nullable Instant finishedAt() {
    return stored.run().finishedAt();
  }

  public @Nullable Instant unknownSince() {
    return stored.run().unknownSince();
  }

  public @Nullable String runId() {
    return stored.run().runId();
  }

  public @Nullable Outcome outcome() {
    return stored.run().outcome();
  }

  public Usage usage() {
    return stored.run().usage();
  }

  public @Nullable UUID receiptJobId() {
    return stored.receipt().jobId();
  }

  public @Nullable String receiptNote() {
    return stored.receipt().note();
  }

  /** This job as the ledger sees it: whose budgets it counts against and what it has used. */
  public Spender spender() {
    return new Spender(
        id(),
        spec().ownerId(),
        spec().teamId(),
        spec().target().name(),
        spec().chainId(),
        spec().kind() == JobKind.RECEIPT,
        admissions(),
        usage());
  }

  /** Whether the runtime of this agent and owner may see and report on this job. */
  public boolean runsOn(String owner, String agent) {
    return spec().ownerId().equals(owner) && spec().target().agentId().equals(agent);
  }
}
