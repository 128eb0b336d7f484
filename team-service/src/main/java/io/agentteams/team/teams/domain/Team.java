package io.agentteams.team.teams.domain;

import io.agentteams.contracts.team.MemberProvisioned;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamDeleted;
import io.agentteams.contracts.team.TeamDisconnected;
import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.contracts.team.TeamFailed;
import io.agentteams.contracts.team.TeamReady;
import io.agentteams.contracts.team.TeamReconnectFailed;
import io.agentteams.contracts.team.TeamReconnected;
import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.TeamRoster;
import io.agentteams.team.agents.domain.AgentRuntime;
import io.agentteams.team.text.domain.StoredText;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;

/**
 * A team: an owner's goal and a fixed roster of named members, and where it is in its lifecycle
 * ({@code provisioning → ready | failed}, {@code ready ⇄ disconnected}, {@code deleted}). Each
 * transition checks the state, changes it and records its event with the next team revision.
 */
public final class Team implements TeamRoster {

  private final UUID id;
  private final String ownerId;
  private final String name;
  private final String goal;
  private final Instant createdAt;
  private TeamStatus status;
  private @Nullable String statusReason;
  private final List<Member> members;
  private int round;
  private long revision;
  private final List<TeamEvent> recorded = new ArrayList<>();

  public Team(
      UUID id,
      String ownerId,
      String name,
      String goal,
      TeamStatus status,
      @Nullable String statusReason,
      List<Member> members,
      int round,
      long revision,
      Instant createdAt) {
    this.id = Objects.requireNonNull(id);
    this.ownerId = Objects.requireNonNull(ownerId);
    this.name = Objects.requireNonNull(name);
    this.goal = Objects.requireNonNull(goal);
    this.status = Objects.requireNonNull(status);
    this.statusReason = statusReason;
    this.members = new ArrayList<>(members);
    this.round = round;
    this.revision = revision;
    this.createdAt = Objects.requireNonNull(createdAt);
  }

  /**
   * A new team in {@code provisioning}, checked against the limits, with every member's
   * provisioning pending and {@code TeamCreated} recorded. Each member gets its own conversation id
   * and the runtime its agent has in the owner's catalog.
   *
   * @param catalog the owner's agents by id; an id it does not hold is a typo, never a member
   * @throws io.agentteams.platform.problem.DomainFailure naming the first rule the request breaks
   */
  public static Team create(
      UUID id,
      String ownerId,
      @Nullable String name,
      @Nullable String goal,
      List<NewMember> requested,
      TeamLimits limits,
      Map<String, AgentRuntime> catalog,
      Function<MemberName, String> conversationIds,
      Instant now) {
    String checkedName = StoredText.checkNotBlank(limits.name(), name);
    String checkedGoal = StoredText.checkNotBlank(limits.goal(), goal);
    if (requested.size() > limits.maxMembers()) {
      throw TeamProblems.tooManyMembers(limits.maxMembers(), requested.size());
    }
    if (requested.size() < limits.minMembers()) {
      throw TeamProblems.tooFewMembers(limits.minMembers(), requested.size());
    }
    Set<MemberName> seen = new HashSet<>();
    List<Member> members = new ArrayList<>();
    int leads = 0;
    for (NewMember wanted : requested) {
      MemberName memberName = new MemberName(wanted.name());
      if (!seen.add(memberName)) {
        throw TeamProblems.duplicateMemberName(memberName);
      }
      String agentId = wanted.agentId();
      if (agentId == null || agentId.isBlank()) {
        throw TeamProblems.missingAgent(memberName);
      }
      AgentRuntime runtime = catalog.get(agentId);
      if (runtime == null) {
        throw TeamProblems.unknownAgent(memberName, agentId);
      }
      if (wanted.lead()) {
        leads++;
      }
      members.add(
          new Member(
              memberName,
              agentId,
              wanted.lead(),
              conversationIds.apply(memberName),
              runtime,
              MemberStatus.PENDING,
              null));
    }
    if (leads > 1) {
      throw TeamProblems.severalLeads(leads);
    }
    Team team =
        new Team(
            id,
            ownerId,
            checkedName,
            checkedGoal,
            TeamStatus.PROVISIONING,
            null,
            members,
            1,
            0,
            now.truncatedTo(ChronoUnit.MILLIS));
    team.record(
        revision ->
            new TeamCreated(
                id.toString(),
                ownerId,
                checkedName,
                checkedGoal,
                TeamStatus.PROVISIONING.wire(),
                team.members.stream()
                    .map(
                        m ->
                            new RosterMember(
                                m.name().value(), m.agentId(), m.lead(), m.conversationId()))
                    .toList(),
                revision));
    return team;
  }

  /**
   * Records that a member's conversation is ensured in the current round. When it was the last
   * pending member the team becomes {@code ready} ({@code TeamReady} after creation, {@code
   * TeamReconnected} after a reconnect). A member that is no longer pending changes nothing, so a
   * step repeated after a crash records nothing twice.
   *
   * @return whether anything changed
   */
  public boolean memberEnsured(MemberName memberName, ConversationOutcome outcome) {
    Member member = member(memberName);
    if (!isProvisioning() || member.status() != MemberStatus.PENDING) {
      return false;
    }
    replace(member.with(MemberStatus.ENSURED, outcome));
    record(
        revision ->
            new MemberProvisioned(
                id.toString(),
                member.name().value(),
                member.agentId(),
                member.runtime().kind().wire(),
                member.conversationId(),
                round,
                outcome.wire(),
                revision));
    if (members.stream().allMatch(m -> m.status() == MemberStatus.ENSURED)) {
      boolean reconnecting = status == TeamStatus.DISCONNECTED;
      status = TeamStatus.READY;
      statusReason = null;
      if (reconnecting) {
        List<String> recreated =
            members.stream()
                .filter(m -> m.outcome() == ConversationOutcome.CREATED)
                .map(m -> m.name().value())
                .toList();
        record(revision -> new TeamReconnected(id.toString(), recreated, revision));
      } else {
        record(revision -> new TeamReady(id.toString(), revision));
      }
    }
    return true;
  }

  /**
   * Records that provisioning gave up on a member; the other pending members are abandoned. A team
   * being created becomes {@code failed}; a team being reconnected stays {@code disconnected}.
   *
   * @return whether anything changed
   */
  public boolean memberFailed(MemberName memberName, String reason) {
    Member member = member(memberName);
    if (!isProvisioning() || member.status() != MemberStatus.PENDING) {
      return false;
    }
    for (int i = 0; i < members.size(); i++) {
      Member other = members.get(i);
      if (other.status() == MemberStatus.PENDING) {
        members.set(
            i,
            other.with(
                other.name().equals(memberName) ? MemberStatus.FAILED : MemberStatus.ABANDONED,
                null));
      }
    }
    statusReason = reason;
    if (status == TeamStatus.PROVISIONING) {
      status = TeamStatus.FAILED;
      record(revision -> new TeamFailed(id.toString(), memberName.value(), reason, revision));
    } else {
      record(
          revision -> new TeamReconnectFailed(id.toString(), memberName.value(), reason, revision));
    }
    return true;
  }

  /**
   * A ready team loses its connection: a dispatch target revoked access or a failure was ambiguous.
   * Disconnecting a disconnected team changes nothing.
   *
   * @return whether anything changed
   */
  public boolean disconnect(String reason) {
    if (status == TeamStatus.DISCONNECTED) {
      return false;
    }
    requireStatus("disconnect", TeamStatus.READY);
    status = TeamStatus.DISCONNECTED;
    statusReason = reason;
    record(revision -> new TeamDisconnected(id.toString(), reason, revision));
    return true;
  }

  /**
   * Starts a reconnect of a disconnected team: a new provisioning round in which every member's
   * conversation is ensured again with its recorded binding. Nothing is published yet: the round's
   * records are the team's own bookkeeping until a member is ensured. A ready team, or one whose
   * reconnect is already under way, is left as it is.
   *
   * @return whether a new round started
   */
  public boolean startReconnect() {
    if (status == TeamStatus.READY) {
      return false;
    }
    requireStatus("reconnect", TeamStatus.DISCONNECTED);
    if (isProvisioning()) {
      return false;
    }
    round++;
    members.replaceAll(m -> m.with(MemberStatus.PENDING, null));
    return true;
  }

  /** Deletes the team; the caller has checked that no job of it is unfinished. */
  public void delete() {
    if (status == TeamStatus.DELETED) {
      throw TeamProblems.teamNotFound(id);
    }
    status = TeamStatus.DELETED;
    statusReason = null;
    record(revision -> new TeamDeleted(id.toString(), revision));
  }

  /** Whether members may act in the team (publish state, take work). */
  public boolean isActive() {
    return status == TeamStatus.READY || status == TeamStatus.DISCONNECTED;
  }

  /** Whether a provisioning round is under way: some member is pending in a live team. */
  public boolean isProvisioning() {
    return (status == TeamStatus.PROVISIONING || status == TeamStatus.DISCONNECTED)
        && members.stream().anyMatch(m -> m.status() == MemberStatus.PENDING);
  }

  /** The member with that name, if the roster has one. */
  public Optional<Member> findMember(String memberName) {
    return members.stream().filter(m -> m.name().value().equals(memberName)).findFirst();
  }

  /** The events recorded since the team was loaded or created, in order, and forgets them. */
  public List<TeamEvent> takeEvents() {
    List<TeamEvent> events = List.copyOf(recorded);
    recorded.clear();
    return events;
  }

  private void record(LongFunction<TeamEvent> event) {
    revision++;
    recorded.add(event.apply(revision));
  }

  private Member member(MemberName memberName) {
    return members.stream()
        .filter(m -> m.name().equals(memberName))
        .findFirst()
        .orElseThrow(() -> TeamProblems.memberNotFound(memberName));
  }

  private void replace(Member member) {
    members.replaceAll(m -> m.name().equals(member.name()) ? member : m);
  }

  private void requireStatus(String action, TeamStatus required) {
    if (status != required) {
      throw TeamProblems.statusConflict(action, status, required);
    }
  }

  public UUID id() {
    return id;
  }

  @Override
  public UUID teamId() {
    return id;
  }

  @Override
  public Optional<Seat> seat(String memberName) {
    return findMember(memberName).map(m -> new Seat(m.name().value(), m.lead()));
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  public String name() {
    return name;
  }

  public String goal() {
    return goal;
  }

  @Override
  public TeamStatus status() {
    return status;
  }

  public @Nullable String statusReason() {
    return statusReason;
  }

  public List<Member> members() {
    return List.copyOf(members);
  }

  /** The names of the members still pending in this round, in roster order. */
  public List<MemberName> pendingMembers() {
    return members.stream()
        .filter(m -> m.status() == MemberStatus.PENDING)
        .map(Member::name)
        .toList();
  }

  /** The current provisioning round: 1 at creation, one more per reconnect. */
  public int round() {
    return round;
  }

  public long revision() {
    return revision;
  }

  public Instant createdAt() {
    return createdAt;
  }
}
