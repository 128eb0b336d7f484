package io.agentteams.team.teams.domain;

import io.agentteams.platform.problem.LimitExceededException;
import io.agentteams.platform.problem.ProblemException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/** A team: an owner's goal and a fixed roster of named members. */
public final class Team {

  private final UUID id;
  private final String ownerId;
  private final String name;
  private final String goal;
  private final TeamStatus status;
  private final List<Member> members;
  private final long revision;
  private final Instant createdAt;

  public Team(
      UUID id,
      String ownerId,
      String name,
      String goal,
      TeamStatus status,
      List<Member> members,
      long revision,
      Instant createdAt) {
    this.id = Objects.requireNonNull(id);
    this.ownerId = Objects.requireNonNull(ownerId);
    this.name = Objects.requireNonNull(name);
    this.goal = Objects.requireNonNull(goal);
    this.status = Objects.requireNonNull(status);
    this.members = List.copyOf(members);
    this.revision = revision;
    this.createdAt = Objects.requireNonNull(createdAt);
  }

  /**
   * A new team in {@code provisioning}, checked against the limits. Each member gets its own
   * conversation id from {@code conversationIds}.
   *
   * @throws ProblemException naming the first rule the request breaks
   */
  public static Team create(
      UUID id,
      String ownerId,
      String name,
      String goal,
      List<NewMember> requested,
      TeamLimits limits,
      Function<MemberName, String> conversationIds,
      Instant now) {
    String checkedName = limits.name().checkNotBlank(name);
    String checkedGoal = limits.goal().checkNotBlank(goal);
    if (requested.size() > limits.maxMembers()) {
      throw new LimitExceededException(
          "team.members.max", "members", limits.maxMembers(), requested.size());
    }
    if (requested.size() < limits.minMembers()) {
      throw new ProblemException(
          ProblemException.Kind.INVALID,
          "too-few-members",
          "a team needs at least " + limits.minMembers() + " members, got " + requested.size(),
          Map.of("min", limits.minMembers(), "actual", requested.size()));
    }
    Set<MemberName> seen = new HashSet<>();
    List<Member> members = new ArrayList<>();
    int leads = 0;
    for (NewMember wanted : requested) {
      MemberName memberName = new MemberName(wanted.name());
      if (!seen.add(memberName)) {
        throw new ProblemException(
            ProblemException.Kind.INVALID,
            "duplicate-member-name",
            "member name '" + memberName + "' is used twice",
            Map.of("name", memberName.value()));
      }
      if (wanted.agentId() == null || wanted.agentId().isBlank()) {
        throw new ProblemException(
            ProblemException.Kind.INVALID,
            "missing-agent",
            "member '" + memberName + "' names no agent",
            Map.of("name", memberName.value()));
      }
      if (wanted.lead()) {
        leads++;
      }
      members.add(
          new Member(
              memberName, wanted.agentId(), wanted.lead(), conversationIds.apply(memberName)));
    }
    if (leads > 1) {
      throw new ProblemException(
          ProblemException.Kind.INVALID,
          "several-leads",
          "a team has at most one lead, got " + leads,
          Map.of("leads", leads));
    }
    return new Team(
        id, ownerId, checkedName, checkedGoal, TeamStatus.PROVISIONING, members, 1, now);
  }

  /** Whether the owner may see and change this team. */
  public boolean ownedBy(String owner) {
    return ownerId.equals(owner);
  }

  public UUID id() {
    return id;
  }

  public String ownerId() {
    return ownerId;
  }

  public String name() {
    return name;
  }

  public String goal() {
    return goal;
  }

  public TeamStatus status() {
    return status;
  }

  public List<Member> members() {
    return members;
  }

  public long revision() {
    return revision;
  }

  public Instant createdAt() {
    return createdAt;
  }
}
