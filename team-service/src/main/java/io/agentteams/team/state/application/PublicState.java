package io.agentteams.team.state.application;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Acting;
import io.agentteams.platform.access.TeamAccess;
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
import io.agentteams.team.teams.application.TeamCommands;
import io.agentteams.team.teams.application.TeamEventLog;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * A team's public state: members and the team's owner publish and update entries (the owner as
 * {@code owner}), and read them. Writes of one team are serialised on the team's row, checked whole
 * by the {@link TeamState} aggregate, and committed with their event; the author, time and source
 * come from the caller's verified identity and the roster.
 */
@Service
public class PublicState {

  /**
   * Who writes the public state: the team's owner or a member of the team on its roster, while the
   * team is ready or disconnected. Another owner's or another team's callers find no such team; an
   * agent worker or another service is not a writer at all.
   */
  static final AccessPolicy STATE_WRITERS =
      AccessPolicy.admitting(AccessPolicy.CallerKind.OWNER, AccessPolicy.CallerKind.MEMBER)
          .refusingOtherCallers((caller, teamId) -> StateProblems.notAWriter())
          .refusingNonMembers((member, teamId) -> StateProblems.notAMember(member.member(), teamId))
          .activeIn(
              EnumSet.of(TeamStatus.READY, TeamStatus.DISCONNECTED), StateProblems::teamNotActive);

  private final StateStore store;
  private final TeamEventLog events;
  private final TeamAccess access;
  private final TransactionalOperator transactions;
  private final StateLimits limits;
  private final Clock clock;

  public PublicState(
      StateStore store,
      TeamEventLog events,
      TeamAccess access,
      TransactionalOperator transactions,
      StateProperties properties,
      Clock clock) {
    this.store = store;
    this.events = events;
    this.access = access;
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

  /**
   * Completes when the caller may write the team's state; the refusal otherwise. Writes ask first,
   * before their body is read, so an outsider learns only "not found" whatever it sends.
   */
  public Mono<Void> admit(Caller caller, UUID teamId) {
    return access.check(caller, teamId, STATE_WRITERS, store.team(teamId)).then();
  }

  /** Publishes an entry as the calling member, or as {@code owner} for the team's owner. */
  public Mono<PublishResult> publish(
      Caller caller,
      UUID teamId,
      @Nullable String requestId,
      @Nullable String kind,
      @Nullable String title,
      @Nullable String content) {
    return transactions.transactional(
        openForWriting(caller, teamId)
            .flatMap(writing -> publish(writing, requestId, kind, title, content)));
  }

  /**
   * Updates an entry as the calling member (or as {@code owner} for the team's owner), if it is
   * still at the expected revision.
   */
  public Mono<UpdateResult> update(
      Caller caller,
      UUID teamId,
      long entryId,
      @Nullable Long expectedRevision,
      EntryChange change) {
    return transactions.transactional(
        openForWriting(caller, teamId)
            .flatMap(writing -> update(writing, entryId, expectedRevision, change)));
  }

  /** The entries the query selects, for the team's owner or one of its members. */
  public Mono<ReadResult> read(Caller caller, UUID teamId, StateQuery query) {
    return access
        .check(caller, teamId, TeamCommands.TEAM_RECORDS, store.team(teamId))
        .flatMap(
            grant ->
                store
                    .entries(teamId)
                    .map(entries -> state(grant.team(), entries))
                    .map(state -> new ReadResult(state.read(query), state.stateRevision())));
  }

  /** One entry, archived or not. */
  public Mono<ReadResult> entry(Caller caller, UUID teamId, long entryId) {
    return read(caller, teamId, new StateQuery(entryId, null, null, true))
        .filter(result -> !result.entries().isEmpty())
        .switchIfEmpty(Mono.error(StateProblems.entryNotFound(entryId)));
  }

  /** A write in progress: the locked team, its writer and the state it changes. */
  private record Writing(TeamHeader team, Author author, TeamState state) {}

  /**
   * Locks the team for the caller's write and loads its state. The author, time and source come
   * from the caller's verified identity and the roster.
   */
  private Mono<Writing> openForWriting(Caller caller, UUID teamId) {
    return access
        .check(caller, teamId, STATE_WRITERS, store.lockTeam(teamId))
        .flatMap(
            grant ->
                store
                    .entries(teamId)
                    .map(
                        entries ->
                            new Writing(
                                grant.team(),
                                author(grant.team(), grant.as()),
                                state(grant.team(), entries))));
  }

  private Mono<PublishResult> publish(
      Writing writing,
      @Nullable String requestId,
      @Nullable String kind,
      @Nullable String title,
      @Nullable String content) {
    Published published =
        writing.state().publish(writing.author(), requestId, kind, title, content, clock.instant());
    PublishResult result = new PublishResult(published, writing.state().stateRevision());
    return published.created()
        ? store
            .insert(writing.team().teamId(), published.entry())
            .then(commit(writing))
            .thenReturn(result)
        : Mono.just(result);
  }

  private Mono<UpdateResult> update(
      Writing writing, long entryId, @Nullable Long expectedRevision, EntryChange change) {
    Updated updated =
        writing
            .state()
            .update(writing.author(), entryId, expectedRevision, change, clock.instant());
    UpdateResult result = new UpdateResult(updated, writing.state().stateRevision());
    return updated.changed()
        ? store
            .update(writing.team().teamId(), updated.entry())
            .then(commit(writing))
            .thenReturn(result)
        : Mono.just(result);
  }

  private Mono<Void> commit(Writing writing) {
    TeamState state = writing.state();
    var recorded = state.takeEvents();
    return store
        .saveRevisions(writing.team().teamId(), state.teamRevision(), state.stateRevision())
        .then(events.append(writing.team().ownerId(), recorded));
  }

  private TeamState state(TeamHeader team, List<Entry> entries) {
    return new TeamState(team.teamId(), team.revision(), team.stateRevision(), entries, limits);
  }

  /** The writer: the team's owner, or the writing member as the roster knows it. */
  private static Author author(TeamHeader team, Acting as) {
    if (as instanceof Acting.AsMember member) {
      String conversation = team.members().get(member.name()).conversationId();
      return new Author(
          member.name(), conversation, member.jobId() == null ? null : member.jobId().toString());
    }
    if (as instanceof Acting.AsOwner) {
      return Author.owner();
    }
    throw new IllegalStateException("the public state is not written as " + as);
  }
}
