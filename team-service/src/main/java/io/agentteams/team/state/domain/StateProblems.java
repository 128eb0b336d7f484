package io.agentteams.team.state.domain;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The named refusals of a team's public state. */
public final class StateProblems {

  private StateProblems() {}

  /** A request id published an entry before, with different content. */
  public static DomainFailure requestIdReused(String requestId, long entryId) {
    return DomainFailure.conflict(
        "request-id-reused",
        "request id '"
            + requestId
            + "' already published entry "
            + entryId
            + " with different content",
        Map.of("request_id", requestId, "entry_id", entryId));
  }

  public static LimitExceededException tooManyEntries(int max, long actual) {
    return new LimitExceededException("state.max-entries", "entries", max, actual);
  }

  public static LimitExceededException tooManyBytes(int max, int actual) {
    return new LimitExceededException("state.max-total-json-bytes", "bytes", max, actual);
  }

  public static DomainFailure entryNotFound(long entryId) {
    return DomainFailure.notFound("state-entry", entryId);
  }

  public static DomainFailure missingExpectedRevision() {
    return DomainFailure.invalid(
        "missing-expected-revision", "an update needs the expected_revision it was based on");
  }

  public static DomainFailure kindImmutable(long entryId, EntryKind kind) {
    return DomainFailure.invalid(
        "kind-immutable",
        "entry " + entryId + " is a " + kind.wire() + "; its kind cannot change",
        Map.of("kind", kind.wire()));
  }

  public static DomainFailure emptyUpdate() {
    return DomainFailure.invalid(
        "empty-update", "an update changes at least one of title, content, status");
  }

  public static DomainFailure invalidEntryKind(@Nullable String value) {
    return DomainFailure.invalid(
        "invalid-entry-kind",
        "kind '" + value + "' must be one of objective, plan, finding, question, requirement",
        Map.of("kind", String.valueOf(value)));
  }

  public static DomainFailure invalidEntryStatus(@Nullable String value) {
    return DomainFailure.invalid(
        "invalid-entry-status",
        "status '" + value + "' must be active or archived",
        Map.of("entry_status", String.valueOf(value)));
  }

  /** A caller that is neither the team's owner nor one of its members (a worker, a service). */
  public static DomainFailure notAWriter() {
    return DomainFailure.forbidden(
        "wrong-caller-kind", "the public state is written by the team's owner and its members");
  }

  /** A member token whose name is not on the team's roster. */
  public static DomainFailure notAMember(String member, UUID teamId) {
    return DomainFailure.forbidden(
        "not-a-member",
        "'" + member + "' is not a member of team " + teamId,
        Map.of("member", member));
  }

  /** The public state is written only while the team is ready or disconnected. */
  public static DomainFailure teamNotActive(UUID teamId, TeamStatus status) {
    return DomainFailure.conflict(
        "team-not-active",
        "team " + teamId + " is " + status.wire() + "; its public state cannot be written yet",
        Map.of("team_status", status.wire()));
  }
}
