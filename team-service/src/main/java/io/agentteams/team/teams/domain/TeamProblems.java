package io.agentteams.team.teams.domain;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.util.Map;
import java.util.UUID;

/** The named refusals of teams and their rosters. */
public final class TeamProblems {

  private TeamProblems() {}

  /** The owner already has as many teams as it may. */
  public static LimitExceededException tooManyTeams(int max, long actual) {
    return new LimitExceededException("team.max-teams-per-owner", "teams", max, actual);
  }

  public static LimitExceededException tooManyMembers(int max, int actual) {
    return new LimitExceededException("team.members.max", "members", max, actual);
  }

  public static DomainFailure tooFewMembers(int min, int actual) {
    return DomainFailure.invalid(
        "too-few-members",
        "a team needs at least " + min + " members, got " + actual,
        Map.of("min", min, "actual", actual));
  }

  public static DomainFailure duplicateMemberName(MemberName name) {
    return DomainFailure.invalid(
        "duplicate-member-name",
        "member name '" + name + "' is used twice",
        Map.of("name", name.value()));
  }

  public static DomainFailure invalidMemberName(String value) {
    return DomainFailure.invalid(
        "invalid-member-name",
        "member name '"
            + value
            + "' must be lowercase kebab-case (a-z, 0-9, single dashes), at most "
            + MemberName.MAX_LENGTH
            + " characters",
        Map.of("name", String.valueOf(value)));
  }

  public static DomainFailure missingAgent(MemberName member) {
    return DomainFailure.invalid(
        "missing-agent", "member '" + member + "' names no agent", Map.of("name", member.value()));
  }

  /** A member names an agent that is not in the owner's catalog. */
  public static DomainFailure unknownAgent(MemberName member, String agentId) {
    return DomainFailure.invalid(
        "unknown-agent",
        "member '" + member + "' names agent '" + agentId + "', which is not in your catalog",
        Map.of("member", member.value(), "agent_id", agentId));
  }

  public static DomainFailure severalLeads(int leads) {
    return DomainFailure.invalid(
        "several-leads", "a team has at most one lead, got " + leads, Map.of("leads", leads));
  }

  /** The team does not exist, or the caller may not know that it exists. */
  public static DomainFailure teamNotFound(UUID teamId) {
    return DomainFailure.notFound("team", teamId);
  }

  public static DomainFailure memberNotFound(MemberName member) {
    return DomainFailure.notFound("member", member);
  }

  /** The team is not in the status the transition needs. */
  public static DomainFailure statusConflict(
      String action, TeamStatus status, TeamStatus required) {
    return DomainFailure.conflict(
        "team-status-conflict",
        "cannot " + action + " a team that is " + status.wire(),
        Map.of("team_status", status.wire(), "required", required.wire()));
  }

  /** A team is deleted only once the scheduler holds no unfinished job of it. */
  public static DomainFailure unfinishedJobs(UUID teamId, long unfinished) {
    return DomainFailure.conflict(
        "team-has-unfinished-jobs",
        "team " + teamId + " still has " + unfinished + " queued, running or waiting jobs",
        Map.of("unfinished_jobs", unfinished));
  }
}
