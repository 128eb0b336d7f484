package io.agentteams.scheduler.job.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.scheduler.budget.domain.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final MemberRef LEAD = new MemberRef("lead", "agent-a", "conv-lead");
  private static final MemberRef HELPER = new MemberRef("helper", "agent-b", "conv-helper");

  private static Job request() {
    UUID id = UUID.randomUUID();
    return Job.create(
        JobSpec.ownerRequest(id, UUID.randomUUID(), "alice", LEAD, "do it", "k1", T0), 1);
  }

  private static Job running(String token) {
    Job job = request();
    job.admit("r1", T0);
    job.offer(token, T0, LEASE);
    job.start(token, "run-1", T0);
    return job;
  }

  private static String code(Runnable action) {
    try {
      action.run();
    } catch (DomainFailure e) {
      return e.code();
    }
    throw new AssertionError("no problem raised");
  }

  @Test
  void aNewJobIsQueuedAtRevisionOne() {
    Job job = request();
    assertThat(job.state()).isEqualTo(JobState.QUEUED);
    assertThat(job.created()).isEqualTo(new JobChange(job.id(), null, JobState.QUEUED, 1));
    assertThat(job.spec().chainId())
        .as("an owner request starts its own chain")
        .isEqualTo(job.id());
  }

  @Test
  void admissionTakesASlotOnlyFromTheQueue() {
    Job job = request();
    JobChange admitted = job.admit("r1", T0);
    assertThat(admitted).isEqualTo(new JobChange(job.id(), JobState.QUEUED, JobState.ADMITTED, 2));
    assertThat(job.state().holdsSlot()).isTrue();
    assertThat(code(() -> job.admit("r2", T0))).isEqualTo("job-state-conflict");
  }

  @Test
  void aReportUnderAnyTokenButTheCurrentLeaseIsRefused() {
    Job job = request();
    job.admit("r1", T0);
    assertThat(code(() -> job.start("guess", null, T0)))
        .as("no lease yet")
        .isEqualTo("stale-lease");
    assertThat(job.offer("t1", T0, LEASE)).as("a first offer is not a reconciliation").isFalse();
    assertThat(code(() -> job.start("t0", null, T0))).isEqualTo("stale-lease");
    assertThat(job.start("t1", "run-1", T0.plusSeconds(1)))
        .isEqualTo(new JobChange(job.id(), JobState.ADMITTED, JobState.RUNNING, 3));
    assertThat(job.start("t1", null, T0.plusSeconds(2))).as("a repeated start").isNull();
  }

  @Test
  void aJobIsLiveOnlyUnderItsCurrentLeaseUntilItEnds() {
    Job job = request();
    job.admit("r1", T0);
    assertThat(job.liveUnder(0)).as("admitted, never offered").isFalse();
    job.offer("1-a", T0, LEASE);
    assertThat(job.liveUnder(1)).isTrue();
    job.release("1-a", T0);
    assertThat(job.liveUnder(1)).as("given back").isFalse();
    job.offer("2-b", T0, LEASE);
    assertThat(job.liveUnder(1)).as("offered again").isFalse();
    assertThat(job.liveUnder(2)).isTrue();
    job.start("2-b", null, T0);
    job.cancel(T0);
    assertThat(job.liveUnder(2)).as("ended").isFalse();
  }

  @Test
  void heartbeatsRenewTheLease() {
    Job job = running("t1");
    job.heartbeat("t1", null, T0.plusSeconds(20));
    assertThat(job.lease().expiresAt()).isEqualTo(T0.plusSeconds(50));
    assertThat(job.leaseLapsed(T0.plusSeconds(45))).isFalse();
    assertThat(job.leaseLapsed(T0.plusSeconds(51))).isTrue();
  }

  @Test
  void aLapsedLeaseMakesTheOutcomeUnknownAndOnlyANewOfferReplacesTheToken() {
    Job job = running("t1");
    assertThat(job.expireLease(T0.plusSeconds(10))).as("not lapsed yet").isNull();
    JobChange unknown = job.expireLease(T0.plusSeconds(31));
    assertThat(unknown.to()).isEqualTo(JobState.UNKNOWN);
    assertThat(unknown.releasedSlot()).as("an unknown outcome keeps its slot").isFalse();
    assertThat(job.offerable()).isTrue();

    assertThat(job.offer("t2", T0.plusSeconds(32), LEASE)).as("a reconciliation offer").isTrue();
    assertThat(code(() -> job.heartbeat("t1", null, T0.plusSeconds(33)))).isEqualTo("stale-lease");
    JobChange settled =
        job.complete("t2", "from the record", 6000, Usage.NONE, null, T0.plusSeconds(34));
    assertThat(settled.from()).isEqualTo(JobState.UNKNOWN);
    assertThat(settled.to()).isEqualTo(JobState.COMPLETED);
    assertThat(settled.releasedSlot()).isTrue();
  }

  @Test
  void theHolderOfALapsedLeaseCanStillSettleTheJobUntilItIsOfferedAgain() {
    Job job = running("t1");
    job.expireLease(T0.plusSeconds(31));
    assertThat(job.heartbeat("t1", null, T0.plusSeconds(32)).to()).isEqualTo(JobState.RUNNING);
    assertThat(job.offerable()).isFalse();
  }

  @Test
  void anUnansweredReofferIsDueAgainWithoutAnotherTransition() {
    Job job = running("t1");
    job.expireLease(T0.plusSeconds(31));
    job.offer("t2", T0.plusSeconds(32), Duration.ofSeconds(5));
    assertThat(job.offerable()).isFalse();
    assertThat(job.expireLease(T0.plusSeconds(40))).isNull();
    assertThat(job.state()).isEqualTo(JobState.UNKNOWN);
    assertThat(job.offerable()).isTrue();
  }

  @Test
  void anUnknownOutcomeIsFailedOnlyAfterTheTimeOutAndNeverCompleted() {
    Job job = running("t1");
    job.expireLease(T0.plusSeconds(31));
    assertThat(job.giveUpUnknown(T0.plusSeconds(60), Duration.ofMinutes(15))).isNull();
    JobChange failed = job.giveUpUnknown(T0.plusSeconds(31 + 901), Duration.ofMinutes(15));
    assertThat(failed.to()).isEqualTo(JobState.FAILED);
    assertThat(job.outcome().error()).startsWith("outcome unknown");
    assertThat(code(() -> job.complete("t1", "late", 6000, Usage.NONE, null, T0.plusSeconds(999))))
        .isEqualTo("job-finished");
  }

  @Test
  void aPushWithoutAnAnswerMakesTheJobUnknownHoldingItsSlotUntilItsReconciliation() {
    Job job = request();
    job.admit("r1", T0);
    job.offer("t1", T0, LEASE);
    job.extendLease("t1", T0.plusSeconds(5));
    assertThat(job.lease().expiresAt()).isEqualTo(T0.plusSeconds(35));

    JobChange unknown = job.pushOutcomeUnknown("t1", T0.plusSeconds(10), T0.plusSeconds(20));
    assertThat(unknown.to()).isEqualTo(JobState.UNKNOWN);
    assertThat(job.state().holdsSlot()).isTrue();
    assertThat(job.unknownSince()).isEqualTo(T0.plusSeconds(10));
    assertThat(job.reofferDue()).as("not before the reconcile delay").isFalse();
    assertThat(job.leaseLapsed(T0.plusSeconds(15))).isFalse();
    assertThat(job.pushOutcomeUnknown("t1", T0.plusSeconds(12), T0.plusSeconds(22)))
        .as("a second unknown changes only when it is asked again")
        .isNull();

    assertThat(job.expireLease(T0.plusSeconds(23))).isNull();
    assertThat(job.reofferDue()).isTrue();
    assertThat(job.offer("t2", T0.plusSeconds(24), LEASE)).as("a reconciliation").isTrue();
    assertThat(code(() -> job.extendLease("t1", T0.plusSeconds(25)))).isEqualTo("stale-lease");
    assertThat(job.complete("t2", "done", 1000, Usage.NONE, null, T0.plusSeconds(26)).to())
        .isEqualTo(JobState.COMPLETED);
    assertThat(job.pushOutcomeUnknown("t2", T0.plusSeconds(27), T0.plusSeconds(30)))
        .as("a finished job stays finished")
        .isNull();
    assertThat(code(() -> job.extendLease("t2", T0.plusSeconds(28)))).isEqualTo("job-finished");
  }

  @Test
  void theAgentsLateAnswerStillSettlesAnUnknownPush() {
    Job job = running("t1");
    job.pushOutcomeUnknown("t1", T0.plusSeconds(10), T0.plusSeconds(20));
    assertThat(job.complete("t1", "late but true", 1000, Usage.NONE, null, T0.plusSeconds(11)).to())
        .isEqualTo(JobState.COMPLETED);
  }

  @Test
  void aQuestionReleasesTheSlotAndAnAnswerQueuesTheJobAgain() {
    Job job = running("t1");
    Question question = new Question(InputKind.CLARIFICATION, "Which one?");
    JobChange asked = job.requireInput("t1", question, null, T0.plusSeconds(5));
    assertThat(asked.to()).isEqualTo(JobState.WAITING_INPUT);
    assertThat(asked.releasedSlot()).isTrue();
    assertThat(job.requireInput("t1", question, null, T0.plusSeconds(6))).as("a retry").isNull();

    DomainFailure mismatch =
        org.junit.jupiter.api.Assertions.assertThrows(
            DomainFailure.class,
            () -> job.answer(new Answer(InputKind.INTERRUPT, "{}"), 7, T0.plusSeconds(7)));
    assertThat(mismatch.code()).isEqualTo("answer-kind-mismatch");
    Answer answer = new Answer(InputKind.CLARIFICATION, "The first");
    JobChange queued = job.answer(answer, 9, T0.plusSeconds(8));
    assertThat(queued.to()).isEqualTo(JobState.QUEUED);
    assertThat(job.resume()).isTrue();
    assertThat(job.queuePosition()).as("answers wait in the queue like new work").isEqualTo(9);
    assertThat(job.answer(answer, 10, T0.plusSeconds(9))).as("the same answer again").isNull();
    assertThat(code(() -> job.answer(new Answer(InputKind.CLARIFICATION, "Other"), 11, T0)))
        .isEqualTo("job-state-conflict");
    assertThat(code(() -> job.heartbeat("t1", null, T0.plusSeconds(10))))
        .as("the answered run's lease is gone")
        .isEqualTo("stale-lease");

    job.admit("r1", T0.plusSeconds(11));
    job.offer("t2", T0.plusSeconds(11), LEASE);
    job.complete("t2", "done", 6000, Usage.NONE, null, T0.plusSeconds(12));
    assertThat(job.answer(answer, 12, T0.plusSeconds(13)))
        .as("the same answer once the job ended: a harmless retry")
        .isNull();
    assertThat(job.state()).isEqualTo(JobState.COMPLETED);
    assertThat(code(() -> job.answer(new Answer(InputKind.CLARIFICATION, "Other"), 13, T0)))
        .isEqualTo("job-finished");
  }

  @Test
  void cancellingIsIdempotentAndFinishesTheJobWithoutAnAnswer() {
    Job job = running("t1");
    JobChange cancelled = job.cancel(T0.plusSeconds(3));
    assertThat(cancelled.releasedSlot()).isTrue();
    assertThat(job.cancel(T0.plusSeconds(4))).isNull();
    assertThat(job.outcome().answer()).isNull();
    assertThat(code(() -> job.complete("t1", "x", 6000, Usage.NONE, null, T0)))
        .isEqualTo("job-finished");
  }

  @Test
  void anInterruptEndsARunningTurnOnceFreesItsSlotAndRefusesTheRuntimesLateReports() {
    Job job = running("t1");
    JobChange interrupted = job.interrupt("interrupted by the lead lead", T0.plusSeconds(3));
    assertThat(interrupted.to()).isEqualTo(JobState.INTERRUPTED);
    assertThat(interrupted.releasedSlot()).isTrue();
    assertThat(job.state().finished()).isTrue();
    assertThat(job.outcome().error()).isEqualTo("interrupted by the lead lead");
    assertThat(job.interrupt("again", T0.plusSeconds(4))).as("idempotent").isNull();
    assertThat(job.outcome().error()).isEqualTo("interrupted by the lead lead");
    assertThat(code(() -> job.heartbeat("t1", null, T0.plusSeconds(5)))).isEqualTo("job-finished");
    assertThat(code(() -> job.complete("t1", "late", 6000, Usage.NONE, null, T0)))
        .isEqualTo("job-finished");
    assertThat(code(() -> job.cancel(T0))).isEqualTo("job-finished");
  }

  @Test
  void onlyAJobWithATurnUnderWayCanBeInterrupted() {
    assertThat(code(() -> request().interrupt("x", T0))).isEqualTo("job-state-conflict");
    Job untaken = request();
    untaken.admit("r1", T0);
    assertThat(code(() -> untaken.interrupt("x", T0)))
        .as("admitted, but no runtime has taken it: no turn under way")
        .isEqualTo("job-state-conflict");
    assertThat(untaken.state()).isEqualTo(JobState.ADMITTED);
    Job admitted = request();
    admitted.admit("r1", T0);
    admitted.offer("t0", T0, Duration.ofSeconds(30));
    assertThat(admitted.interrupt("x", T0).from())
        .as("handed to a runtime, which may have begun")
        .isEqualTo(JobState.ADMITTED);
    Job asking = running("t1");
    asking.requireInput("t1", new Question(InputKind.CLARIFICATION, "which?"), null, T0);
    assertThat(asking.interrupt("x", T0).releasedSlot()).as("it held no slot").isFalse();
    Job done = running("t2");
    done.complete("t2", "done", 6000, Usage.NONE, null, T0);
    assertThat(code(() -> done.interrupt("x", T0))).isEqualTo("job-finished");
  }

  @Test
  void aCompletionReportedTwiceChangesNothingTheSecondTime() {
    Job job = running("t1");
    assertThat(job.complete("t1", "done", 6000, new Usage(10, 2), "run-1", T0.plusSeconds(1)))
        .isNotNull();
    assertThat(job.complete("t1", "done", 6000, new Usage(10, 2), "run-1", T0.plusSeconds(2)))
        .isNull();
    assertThat(job.revision()).isEqualTo(4);
    assertThat(job.usage()).isEqualTo(new Usage(10, 2));
  }

  @Test
  void aHandOffInheritsTheExecutingJobsChainAndReturnsItsAnswerAsAReceipt() {
    Job executing = running("t1");
    UUID id = UUID.randomUUID();
    Job handoff =
        Job.create(
            JobSpec.handoff(
                id, executing.spec().teamId(), "alice", HELPER, LEAD, executing, "help", "h1", T0),
            2);
    assertThat(handoff.spec().chainId()).isEqualTo(executing.spec().chainId());
    assertThat(handoff.spec().parentJobId()).isEqualTo(executing.id());
    assertThat(handoff.needsReceipt()).isFalse();

    handoff.admit("r1", T0);
    handoff.offer("h", T0, LEASE);
    handoff.complete("h", "the numbers", 6000, Usage.NONE, null, T0.plusSeconds(1));
    assertThat(handoff.needsReceipt()).isTrue();
    JobSpec receipt = handoff.receiptSpec(UUID.randomUUID(), T0.plusSeconds(2));
    assertThat(receipt.kind()).isEqualTo(JobKind.RECEIPT);
    assertThat(receipt.target()).isEqualTo(LEAD);
    assertThat(receipt.requester()).isEqualTo("helper");
    assertThat(receipt.parentJobId()).isEqualTo(handoff.id());
    assertThat(receipt.chainId()).isEqualTo(executing.spec().chainId());
    assertThat(receipt.input()).isEqualTo("the numbers");
    handoff.receiptCreated(receipt.id());
    assertThat(handoff.needsReceipt()).isFalse();
  }

  @Test
  void aMemberWithoutAnExecutingJobStartsItsOwnChain() {
    UUID id = UUID.randomUUID();
    JobSpec spec =
        JobSpec.handoff(id, UUID.randomUUID(), "alice", HELPER, LEAD, null, "x", "k", T0);
    assertThat(spec.chainId()).isEqualTo(id);
    assertThat(spec.parentJobId()).isNull();
    assertThatThrownBy(
            () -> JobSpec.handoff(id, UUID.randomUUID(), "alice", LEAD, LEAD, null, "x", "k", T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCancelledHandOffReturnsNoReceipt() {
    Job executing = running("t1");
    Job handoff =
        Job.create(
            JobSpec.handoff(
                UUID.randomUUID(),
                executing.spec().teamId(),
                "alice",
                HELPER,
                LEAD,
                executing,
                "help",
                "h1",
                T0),
            2);
    handoff.cancel(T0);
    assertThat(handoff.needsReceipt()).isFalse();
  }

  @Test
  void anAdmittedJobNobodyTookGivesItsSlotBackAfterTheOfferTimeOutAndQueuesAgainInItsPlace() {
    Job job = request();
    long position = job.queuePosition();
    job.admit("r1", T0);
    Duration timeout = Duration.ofMinutes(1);
    assertThat(job.returnUntaken(T0.plusSeconds(59), timeout)).as("not yet").isNull();
    JobChange returned = job.returnUntaken(T0.plusSeconds(61), timeout);
    assertThat(returned.from()).isEqualTo(JobState.ADMITTED);
    assertThat(returned.to()).isEqualTo(JobState.WAITING_WORKER);
    assertThat(returned.releasedSlot()).isTrue();
    assertThat(job.state().finished()).isFalse();
    assertThat(job.workerAvailable().to()).isEqualTo(JobState.QUEUED);
    assertThat(job.queuePosition()).as("keeps its place").isEqualTo(position);
    assertThat(job.workerAvailable()).as("only a waiting job queues again").isNull();
  }

  @Test
  void anOfferedJobIsNeverReturnedByTheOfferTimeOutItsLeaseDecides() {
    Job job = request();
    job.admit("r1", T0);
    job.offer("t1", T0, LEASE, "worker-1");
    assertThat(job.lease().holder()).isEqualTo("worker-1");
    assertThat(job.returnUntaken(T0.plus(Duration.ofHours(1)), Duration.ofMinutes(1))).isNull();
    assertThat(job.state()).isEqualTo(JobState.ADMITTED);
  }

  @Test
  void aReleasedJobIsOfferedAgainIfItNeverStartedAndReconciledIfItDid() {
    Job job = request();
    job.admit("r1", T0);
    job.offer("t1", T0, LEASE, "w1");
    assertThat(job.release("t1", T0)).as("not started: no state change").isNull();
    assertThat(job.offerable()).isTrue();
    assertThat(job.offer("t2", T0, LEASE, "w2")).as("a plain offer").isFalse();
    job.start("t2", null, T0);
    JobChange released = job.release("t2", T0.plusSeconds(5));
    assertThat(released.to()).isEqualTo(JobState.UNKNOWN);
    assertThat(job.state().holdsSlot()).as("keeps its slot until reconciled").isTrue();
    assertThat(job.offerable()).isTrue();
    assertThat(job.release("t2", T0.plusSeconds(6))).as("twice changes nothing").isNull();
    assertThat(job.offer("t3", T0.plusSeconds(7), LEASE, "w3")).as("reconciliation").isTrue();
    assertThat(code(() -> job.release("t2", T0))).isEqualTo("stale-lease");
  }
}
