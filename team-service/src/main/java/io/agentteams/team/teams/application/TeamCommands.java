package io.agentteams.team.teams.application;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.access.TeamIds;
import io.agentteams.platform.identity.Caller;
import io.agentteams.team.agents.application.AgentCatalog;
import io.agentteams.team.agents.domain.AgentRuntime;
import io.agentteams.team.jobs.persistence.SchedulerJobs;
import io.agentteams.team.teams.TeamProperties;
import io.agentteams.team.teams.domain.NewMember;
import io.agentteams.team.teams.domain.Team;
import io.agentteams.team.teams.domain.TeamLimits;
import io.agentteams.team.teams.domain.TeamProblems;
import io.agentteams.team.teams.persistence.TeamStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creating, reading, disconnecting, reconnecting and deleting teams; each change with its events.
 */
@Service
public class TeamCommands {

  /**
   * Who sees a team's record: its owner, its members and other services; anyone else, and everyone
   * once the team is deleted, finds no such team.
   */
  public static final AccessPolicy TEAM_RECORDS =
      AccessPolicy.admitting(
          AccessPolicy.CallerKind.OWNER,
          AccessPolicy.CallerKind.MEMBER,
          AccessPolicy.CallerKind.SERVICE);

  private final TeamStore teams;
  private final AgentCatalog catalog;
  private final SchedulerJobs jobs;
  private final TeamEventLog events;
  private final TeamProvisioning provisioning;
  private final TeamAccess access;
  private final TransactionalOperator transactions;
  private final TeamLimits limits;
  private final Clock clock;

  public TeamCommands(
      TeamStore teams,
      AgentCatalog catalog,
      SchedulerJobs jobs,
      TeamEventLog events,
      TeamProvisioning provisioning,
      TeamAccess access,
      TransactionalOperator transactions,
      TeamProperties properties,
      Clock clock) {
    this.teams = teams;
    this.catalog = catalog;
    this.jobs = jobs;
    this.events = events;
    this.provisioning = provisioning;
    this.access = access;
    this.transactions = transactions;
    this.limits = properties.limits();
    this.clock = clock;
  }

  /**
   * Creates a team for the owner, announces it with {@code TeamCreated} and starts provisioning its
   * members. Every member's agent must be in the owner's catalog.
   */
  public Mono<Team> create(Caller.Owner owner, String name, String goal, List<NewMember> members) {
    List<String> agentIds =
        members.stream().map(NewMember::agentId).filter(Objects::nonNull).distinct().toList();
    Mono<Team> created =
        roomForOneMore(owner)
            .then(catalog.runtimes(owner.ownerId(), agentIds))
            .map(runtimes -> newTeam(owner, name, goal, members, runtimes))
            .flatMap(this::insert);
    return transactions.transactional(created).doOnNext(team -> provisioning.kick(team.id()));
  }

  /** Completes under the owner's lock when the owner may have one more team. */
  private Mono<Void> roomForOneMore(Caller.Owner owner) {
    return teams
        .lockOwner(owner.ownerId())
        .then(teams.countActive(owner.ownerId()))
        .flatMap(
            count ->
                count >= limits.maxTeamsPerOwner()
                    ? Mono.error(TeamProblems.tooManyTeams(limits.maxTeamsPerOwner(), count + 1))
                    : Mono.empty());
  }

  private Team newTeam(
      Caller.Owner owner,
      String name,
      String goal,
      List<NewMember> members,
      Map<String, AgentRuntime> runtimes) {
    return Team.create(
        TeamIds.mint(clock.instant()),
        owner.ownerId(),
        name,
        goal,
        members,
        limits,
        runtimes,
        member -> UUID.randomUUID().toString(),
        clock.instant());
  }

  private Mono<Team> insert(Team team) {
    var recorded = team.takeEvents();
    return teams.insert(team).then(events.append(team.ownerId(), recorded)).thenReturn(team);
  }

  /** A team the caller may see; anything else is answered as not found. */
  public Mono<Team> find(Caller caller, UUID teamId) {
    return access.check(caller, teamId, TEAM_RECORDS, teams.find(teamId)).map(Grant::team);
  }

  /** The owner's teams, newest first. */
  public Flux<Team> list(Caller.Owner owner) {
    return teams.findByOwner(owner.ownerId());
  }

  /**
   * Deletes the owner's team unless the scheduler reports queued, running or waiting jobs for it.
   * This system's records of the team go; the agents' own conversations are not touched.
   */
  public Mono<Void> delete(Caller.Owner owner, UUID teamId) {
    return transactions.transactional(
        lockVisible(owner, teamId).flatMap(this::refuseWithUnfinishedJobs).flatMap(this::erase));
  }

  /** The team, once the scheduler reports none of its jobs unfinished. */
  private Mono<Team> refuseWithUnfinishedJobs(Team team) {
    return jobs.countUnfinished(team.id())
        .flatMap(
            unfinished ->
                unfinished > 0
                    ? Mono.error(TeamProblems.unfinishedJobs(team.id(), unfinished))
                    : Mono.just(team));
  }

  /** Deletes the team and forgets what this service held of it, with {@code TeamDeleted}. */
  private Mono<Void> erase(Team team) {
    team.delete();
    var recorded = team.takeEvents();
    return teams
        .save(team)
        .then(teams.eraseContent(team.id()))
        .then(jobs.forget(team.id()))
        .then(events.append(team.ownerId(), recorded));
  }

  /**
   * Starts a reconnect of the owner's disconnected team: every member's conversation is ensured
   * again with its recorded binding, missing ones recreated, existing ones left unchanged.
   *
   * @return the team as it stands once the reconnect was recorded
   */
  public Mono<Team> reconnect(Caller.Owner owner, UUID teamId) {
    Mono<Team> started =
        lockVisible(owner, teamId)
            .flatMap(
                team ->
                    team.startReconnect() ? teams.save(team).thenReturn(team) : Mono.just(team));
    return transactions
        .transactional(started)
        .doOnNext(
            team -> {
              if (team.isProvisioning()) {
                provisioning.kick(team.id());
              }
            });
  }

  /**
   * Marks a ready team disconnected: a dispatch target revoked access or a failure was ambiguous.
   * Called by the scheduler; the team stays so until its owner reconnects it.
   */
  public Mono<Team> disconnect(Caller.Service service, UUID teamId, String reason) {
    Mono<Team> disconnected =
        lockVisible(service, teamId)
            .flatMap(team -> team.disconnect(reason) ? saveWithEvents(team) : Mono.just(team));
    return transactions.transactional(disconnected);
  }

  /**
   * A push runtime refused access to one of the team's jobs (the scheduler's {@code
   * RuntimeRefusedAccess}): a ready team becomes disconnected with the reason. A team in any other
   * status is left as it is (already disconnected, being reconnected, failed or deleted).
   */
  public Mono<Void> runtimeRefusedAccess(UUID teamId, String reason) {
    Mono<Team> disconnected =
        teams
            .lock(teamId)
            .filter(team -> team.status() == TeamStatus.READY)
            .flatMap(team -> team.disconnect(reason) ? saveWithEvents(team) : Mono.just(team));
    return transactions.transactional(disconnected).then();
  }

  private Mono<Team> saveWithEvents(Team team) {
    var recorded = team.takeEvents();
    return teams.save(team).then(events.append(team.ownerId(), recorded)).thenReturn(team);
  }

  /** The team locked for a change, when the caller may see it; otherwise not found. */
  private Mono<Team> lockVisible(Caller caller, UUID teamId) {
    return access.check(caller, teamId, TEAM_RECORDS, teams.lock(teamId)).map(Grant::team);
  }
}
