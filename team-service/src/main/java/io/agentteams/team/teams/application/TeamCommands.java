package io.agentteams.team.teams.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.team.agents.application.AgentCatalog;
import io.agentteams.team.jobs.persistence.SchedulerJobs;
import io.agentteams.team.teams.TeamProperties;
import io.agentteams.team.teams.domain.NewMember;
import io.agentteams.team.teams.domain.Team;
import io.agentteams.team.teams.domain.TeamLimits;
import io.agentteams.team.teams.domain.TeamProblems;
import io.agentteams.team.teams.domain.TeamStatus;
import io.agentteams.team.teams.persistence.TeamStore;
import java.time.Clock;
import java.util.List;
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

  private final TeamStore teams;
  private final AgentCatalog catalog;
  private final SchedulerJobs jobs;
  private final TeamEventLog events;
  private final TeamProvisioning provisioning;
  private final TransactionalOperator transactions;
  private final TeamLimits limits;
  private final Clock clock;

  public TeamCommands(
      TeamStore teams,
      AgentCatalog catalog,
      SchedulerJobs jobs,
      TeamEventLog events,
      TeamProvisioning provisioning,
      TransactionalOperator transactions,
      TeamProperties properties,
      Clock clock) {
    this.teams = teams;
    this.catalog = catalog;
    this.jobs = jobs;
    this.events = events;
    this.provisioning = provisioning;
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
        teams
            .lockOwner(owner.ownerId())
            .then(teams.countActive(owner.ownerId()))
            .flatMap(
                count ->
                    count >= limits.maxTeamsPerOwner()
                        ? Mono.error(
                            TeamProblems.tooManyTeams(limits.maxTeamsPerOwner(), count + 1))
                        : catalog.runtimes(owner.ownerId(), agentIds))
            .map(
                runtimes ->
                    Team.create(
                        UUID.randomUUID(),
                        owner.ownerId(),
                        name,
                        goal,
                        members,
                        limits,
                        runtimes,
                        member -> UUID.randomUUID().toString(),
                        clock.instant()))
            .flatMap(
                team -> {
                  var recorded = team.takeEvents();
                  return teams
                      .insert(team)
                      .then(events.append(team.ownerId(), recorded))
                      .thenReturn(team);
                });
    return transactions.transactional(created).doOnNext(team -> provisioning.kick(team.id()));
  }

  /** A team the caller may see; anything else is answered as not found. */
  public Mono<Team> find(Caller caller, UUID teamId) {
    return teams
        .find(teamId)
        .filter(team -> visible(caller, team))
        .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)));
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
    Mono<Void> deleted =
        lockVisible(owner, teamId)
            .flatMap(
                team ->
                    jobs.countUnfinished(teamId)
                        .flatMap(
                            unfinished -> {
                              if (unfinished > 0) {
                                return Mono.error(TeamProblems.unfinishedJobs(teamId, unfinished));
                              }
                              team.delete();
                              var recorded = team.takeEvents();
                              return teams
                                  .save(team)
                                  .then(teams.eraseContent(teamId))
                                  .then(jobs.forget(teamId))
                                  .then(events.append(team.ownerId(), recorded));
                            }));
    return transactions.transactional(deleted);
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
        teams
            .lock(teamId)
            .filter(team -> team.status() != TeamStatus.DELETED)
            .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)))
            .flatMap(
                team -> {
                  if (!team.disconnect(reason)) {
                    return Mono.just(team);
                  }
                  var recorded = team.takeEvents();
                  return teams
                      .save(team)
                      .then(events.append(team.ownerId(), recorded))
                      .thenReturn(team);
                });
    return transactions.transactional(disconnected);
  }

  private Mono<Team> lockVisible(Caller caller, UUID teamId) {
    return teams
        .lock(teamId)
        .filter(team -> visible(caller, team))
        .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)));
  }

  /**
   * Owners see their teams, members the team they belong to, services every team; a deleted team is
   * seen by no one.
   */
  static boolean visible(Caller caller, Team team) {
    if (team.status() == TeamStatus.DELETED) {
      return false;
    }
    if (caller instanceof Caller.Owner owner) {
      return team.ownedBy(owner.ownerId());
    }
    if (caller instanceof Caller.Member member) {
      return member.teamId().equals(team.id())
          && team.ownedBy(member.ownerId())
          && team.findMember(member.member()).isPresent();
    }
    return caller instanceof Caller.Service;
  }
}
