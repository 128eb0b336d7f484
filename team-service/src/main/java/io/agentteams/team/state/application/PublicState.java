package io.agentteams.team.state.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.team.state.StateProperties;
import io.agentteams.team.state.domain.Author;
import io.agentteams.team.state.domain.Entry;
import io.agentteams.team.state.domain.EntryChange;
import io.agentteams.team.state.domain.Published;
import io.agentteams.team.state.domain.StateLimits;
import io.agentteams.team.state.domain.StateProblems;
import io.agentteams.team.state.domain.StateQuery;
import io.agentteams.team.state.domain.TeamState;
import io.agentteams.team.state.domain.Updated;
import io.agentteams.team.state.persistence.StateStore;
import io.agentteams.team.state.persistence.StateStore.TeamHeader;
import io.agentteams.team.teams.application.TeamEventLog;
import io.agentteams.team.teams.domain.TeamProblems;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * A team's public state: members publish and update entries, owners and members read them. Writes
 * of one team are serialised on the team's row, checked whole by the {@link TeamState} aggregate,
 * and committed with their event; the author, time and source come from the caller's verified
 * identity and the roster.
 */
@Service
public class PublicState {

  private final StateStore store;
  private final TeamEventLog events;
  private final TransactionalOperator transactions;
  private final StateLimits limits;
  private final Clock clock;

  public PublicState(
      StateStore store,
      TeamEventLog events,
      TransactionalOperator transactions,
      StateProperties properties,
      Clock clock) {
    this.store = store;
    this.events = events;
    this.transactions = transactions;
    this.limits = properties.limits();
    this.clock = clock;
  }

  /** What a publish did, and the team-state revision after it. */
  public record PublishResult(Published published, long stateRevision) {}

  /** What an update did, and the team-state revision after it. */
  public record UpdateResult(Updated updated, long stateRevision) {}

  /** The entries a read selected, and the team-state revision they belong to. */
  public record ReadResult(List<Entry> entries, long stateRevision) {}

  /** Publishes an entry as the calling member. */
  public Mono<PublishResult> publish(
      Caller.Member member,
      UUID teamId,
      @Nullable String requestId,
      @Nullable String kind,
      @Nullable String title,
      @Nullable String content) {
    Mono<PublishResult> write =
        store
            .lockTeam(teamId)
            .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)))
            .flatMap(
                team -> {
                  Author author = author(member, teamId, team);
                  return store
                      .entries(teamId)
                      .flatMap(
                          entries -> {
                            TeamState state = state(teamId, team, entries);
                            Published published =
                                state.publish(
                                    author, requestId, kind, title, content, clock.instant());
                            PublishResult result =
                                new PublishResult(published, state.stateRevision());
                            return published.created()
                                ? store
                                    .insert(teamId, published.entry())
                                    .then(commit(teamId, team, state))
                                    .thenReturn(result)
                                : Mono.just(result);
                          });
                });
    return transactions.transactional(write);
  }

  /** Updates an entry as the calling member, if it is still at the expected revision. */
  public Mono<UpdateResult> update(
      Caller.Member member,
      UUID teamId,
      long entryId,
      @Nullable Long expectedRevision,
      EntryChange change) {
    Mono<UpdateResult> write =
        store
            .lockTeam(teamId)
            .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)))
            .flatMap(
                team -> {
                  Author author = author(member, teamId, team);
                  return store
                      .entries(teamId)
                      .flatMap(
                          entries -> {
                            TeamState state = state(teamId, team, entries);
                            Updated updated =
                                state.update(
                                    author, entryId, expectedRevision, change, clock.instant());
                            UpdateResult result = new UpdateResult(updated, state.stateRevision());
                            return updated.changed()
                                ? store
                                    .update(teamId, updated.entry())
                                    .then(commit(teamId, team, state))
                                    .thenReturn(result)
                                : Mono.just(result);
                          });
                });
    return transactions.transactional(write);
  }

  /** The entries the query selects, for the team's owner or one of its members. */
  public Mono<ReadResult> read(Caller caller, UUID teamId, StateQuery query) {
    return store
        .team(teamId)
        .filter(team -> readable(caller, teamId, team))
        .switchIfEmpty(Mono.error(TeamProblems.teamNotFound(teamId)))
        .flatMap(
            team ->
                store
                    .entries(teamId)
                    .map(
                        entries ->
                            new ReadResult(
                                state(teamId, team, entries).read(query), team.stateRevision())));
  }

  /** One entry, archived or not. */
  public Mono<ReadResult> entry(Caller caller, UUID teamId, long entryId) {
    return read(caller, teamId, new StateQuery(entryId, null, null, true))
        .filter(result -> !result.entries().isEmpty())
        .switchIfEmpty(Mono.error(StateProblems.entryNotFound(entryId)));
  }

  private Mono<Void> commit(UUID teamId, TeamHeader team, TeamState state) {
    var recorded = state.takeEvents();
    return store
        .saveRevisions(teamId, state.teamRevision(), state.stateRevision())
        .then(events.append(team.ownerId(), recorded));
  }

  private TeamState state(UUID teamId, TeamHeader team, List<Entry> entries) {
    return new TeamState(teamId, team.revision(), team.stateRevision(), entries, limits);
  }

  /** The writing member as the roster knows it; anyone else is refused. */
  private static Author author(Caller.Member member, UUID teamId, TeamHeader team) {
    if (!member.teamId().equals(teamId)
        || !member.ownerId().equals(team.ownerId())
        || "deleted".equals(team.status())) {
      throw TeamProblems.teamNotFound(teamId);
    }
    String conversation = team.conversations().get(member.member());
    if (conversation == null) {
      throw StateProblems.notAMember(member.member(), teamId);
    }
    if (!"ready".equals(team.status()) && !"disconnected".equals(team.status())) {
      throw StateProblems.teamNotActive(teamId, team.status());
    }
    return new Author(
        member.member(), conversation, member.jobId() == null ? null : member.jobId().toString());
  }

  private static boolean readable(Caller caller, UUID teamId, TeamHeader team) {
    if ("deleted".equals(team.status())) {
      return false;
    }
    if (caller instanceof Caller.Owner owner) {
      return owner.ownerId().equals(team.ownerId());
    }
    if (caller instanceof Caller.Member member) {
      return member.teamId().equals(teamId)
          && member.ownerId().equals(team.ownerId())
          && team.conversations().containsKey(member.member());
    }
    return caller instanceof Caller.Service;
  }
}
