package io.agentteams.team.teams.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.problem.LimitExceededException;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.team.teams.TeamProperties;
import io.agentteams.team.teams.domain.NewMember;
import io.agentteams.team.teams.domain.Team;
import io.agentteams.team.teams.domain.TeamLimits;
import io.agentteams.team.teams.persistence.TeamStore;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Creating and reading teams; every change commits with its outbox event. */
@Service
public class TeamCommands {

  private final TeamStore teams;
  private final Outbox outbox;
  private final TransactionalOperator transactions;
  private final TeamLimits limits;
  private final Clock clock;

  public TeamCommands(
      TeamStore teams,
      Outbox outbox,
      TransactionalOperator transactions,
      TeamProperties properties,
      Clock clock) {
    this.teams = teams;
    this.outbox = outbox;
    this.transactions = transactions;
    this.limits = properties.limits();
    this.clock = clock;
  }

  /** Creates a team for the owner and announces it with {@code TeamCreated}. */
  public Mono<Team> create(Caller.Owner owner, String name, String goal, List<NewMember> members) {
    return Mono.fromCallable(
            () ->
                Team.create(
                    UUID.randomUUID(),
                    owner.ownerId(),
                    name,
                    goal,
                    members,
                    limits,
                    member -> UUID.randomUUID().toString(),
                    clock.instant()))
        .flatMap(
            team ->
                transactions.transactional(
                    teams
                        .lockOwner(owner.ownerId())
                        .then(teams.countActive(owner.ownerId()))
                        .flatMap(
                            count ->
                                count >= limits.maxTeamsPerOwner()
                                    ? Mono.error(
                                        new LimitExceededException(
                                            "team.max-teams-per-owner",
                                            "teams",
                                            limits.maxTeamsPerOwner(),
                                            count + 1))
                                    : teams.insert(team))
                        .then(
                            outbox.append(
                                Topics.TEAM_EVENTS,
                                team.id().toString(),
                                team.ownerId(),
                                team.revision(),
                                created(team)))
                        .thenReturn(team)));
  }

  /** The owner's team; another owner's team is answered as not found. */
  public Mono<Team> find(Caller caller, UUID teamId) {
    return teams
        .find(teamId)
        .filter(team -> team.ownedBy(caller.ownerId()))
        .switchIfEmpty(Mono.error(ProblemException.notFound("team", teamId)));
  }

  /** The owner's teams, newest first. */
  public Flux<Team> list(Caller.Owner owner) {
    return teams.findByOwner(owner.ownerId());
  }

  private static TeamCreated created(Team team) {
    return new TeamCreated(
        team.id().toString(),
        team.ownerId(),
        team.name(),
        team.goal(),
        team.status().wire(),
        team.members().stream()
            .map(m -> new RosterMember(m.name().value(), m.agentId(), m.lead(), m.conversationId()))
            .toList(),
        team.revision());
  }
}
