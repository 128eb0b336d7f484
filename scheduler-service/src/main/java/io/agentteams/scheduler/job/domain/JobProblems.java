package io.agentteams.scheduler.job.domain;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The named refusals of requests, hand-offs and job transitions. */
public final class JobProblems {

  private JobProblems() {}

  /** A report carried a lease token that is not the job's current one. */
  public static DomainFailure staleLease(UUID jobId) {
    return DomainFailure.conflict(
        "stale-lease",
        "job " + jobId + " is leased under another token; this report is refused",
        Map.of("job_id", jobId.toString()));
  }

  /** A change that the job's state does not allow. */
  public static DomainFailure wrongState(UUID jobId, JobState state, String what) {
    String code = state.finished() ? "job-finished" : "job-state-conflict";
    return DomainFailure.conflict(
        code,
        "job " + jobId + " is " + state.wire() + " and cannot " + what,
        Map.of("job_id", jobId.toString(), "state", state.wire()));
  }

  /** The job does not exist, or the caller may not know that it exists. */
  public static DomainFailure jobNotFound(UUID jobId) {
    return DomainFailure.notFound("job", jobId);
  }

  /** An answer of the other kind than the question asked for. */
  public static DomainFailure answerKindMismatch(UUID jobId, @Nullable Question question) {
    return DomainFailure.invalid(
        "answer-kind-mismatch",
        "job "
            + jobId
            + " asked a "
            + (question == null ? "question" : question.kind().wire())
            + "; answer it with "
            + (question != null && question.kind() == InputKind.INTERRUPT
                ? "a JSON response"
                : "text"));
  }

  public static DomainFailure answerShape() {
    return DomainFailure.invalid(
        "answer-shape", "answer with either text (clarification) or response (interrupt)");
  }

  public static LimitExceededException teamRequests(int max, int actual) {
    return new LimitExceededException("scheduler.team-max-requests", "requests", max, actual);
  }

  public static LimitExceededException chainRequests(int max, int actual) {
    return new LimitExceededException("scheduler.chain-max-requests", "requests", max, actual);
  }

  /** A JSON answer or question over its limit, named by the limit's configuration name. */
  public static LimitExceededException jsonTooLarge(String limit, int max, int bytes) {
    return new LimitExceededException(limit, "bytes", max, bytes);
  }

  /** A request with {@code if_busy: reject} to a member whose conversation has a job. */
  public static DomainFailure conversationBusy(String member, UUID jobId, JobState state) {
    return DomainFailure.conflict(
        "conversation-busy",
        member + "'s conversation is busy with job " + jobId + " (" + state.wire() + ")",
        Map.of("member", member, "job_id", jobId.toString(), "state", state.wire()));
  }

  /** An {@code if_busy} value the scheduler does not know. */
  public static DomainFailure unknownIfBusy(String value) {
    return DomainFailure.invalid(
        "invalid-if-busy",
        "if_busy must be enqueue, reject or interrupt",
        Map.of("if_busy", value));
  }

  /** A member that does not lead its team asked to interrupt a job. */
  public static DomainFailure notLead(String member, UUID teamId) {
    return DomainFailure.forbidden(
        "not-lead",
        member + " does not lead team " + teamId + "; only the lead interrupts a member's job",
        Map.of("member", member));
  }

  /** A member token whose name is not on the team's roster. */
  public static DomainFailure notAMember(String member, UUID teamId) {
    return DomainFailure.forbidden("not-a-member", member + " is not a member of team " + teamId);
  }

  /** A failed or deleted team accepts no requests. */
  public static DomainFailure teamNotActive(UUID teamId, TeamStatus status) {
    return DomainFailure.conflict(
        "team-not-active",
        "team " + teamId + " is " + status.wire() + " and accepts no requests",
        Map.of("team_status", status.wire()));
  }

  public static DomainFailure oneRecipient() {
    return DomainFailure.invalid(
        "one-recipient", "a member hands work to exactly one other member");
  }

  public static DomainFailure handoffToSelf() {
    return DomainFailure.invalid("handoff-to-self", "a member cannot hand work to itself");
  }

  public static DomainFailure noRecipients() {
    return DomainFailure.invalid("no-recipients", "select at least one recipient");
  }

  public static DomainFailure duplicateRecipient() {
    return DomainFailure.invalid("duplicate-recipient", "a recipient is selected twice");
  }

  public static DomainFailure unknownMember(UUID teamId, String name) {
    return DomainFailure.invalid(
        "unknown-member",
        "team " + teamId + " has no member '" + name + "'",
        Map.of("member", String.valueOf(name)));
  }

  /** An idempotency key that an earlier, different request used. */
  public static DomainFailure idempotencyKeyReused(String key) {
    return DomainFailure.conflict(
        "idempotency-key-reused",
        "idempotency key '" + key + "' was used for a different request",
        Map.of("idempotency_key", key));
  }

  /** A member token minted for a job that the member does not run. */
  public static DomainFailure notYourJob(UUID jobId, String member) {
    return DomainFailure.forbidden(
        "not-your-job", "the token's job " + jobId + " is not run by " + member);
  }
}
