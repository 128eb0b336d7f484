package io.agentteams.platform.roster;

import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.contracts.team.TeamDeleted;
import io.agentteams.contracts.team.TeamDisconnected;
import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.contracts.team.TeamFailed;
import io.agentteams.contracts.team.TeamReady;
import io.agentteams.contracts.team.TeamReconnected;
import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.consumer.EventHandler;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads and maintains the roster projection. It follows the team lifecycle: {@code TeamCreated}
 * records the roster, {@code TeamReady} and {@code TeamReconnected} make it {@code ready}, {@code
 * TeamFailed} {@code failed}, {@code TeamDisconnected} {@code disconnected}, and {@code
 * TeamDeleted} leaves a {@code deleted} tombstone without members (so a late copy of an older event
 * cannot bring the team back). Every change is guarded by the team revision: an event at or below
 * the revision the projection holds changes nothing.
 *
 * <p>Tombstones are purged after the tombstone retention ({@link RosterTombstones}). Every event of
 * a team occurred before its {@code TeamDeleted}, so once its tombstone is gone every event of the
 * team is older than the retention; an event that old is ignored, so nothing can bring a purged
 * team back (and none can still be delivered: the retention outlasts the topic's).
 */
public final class Rosters {

  private static final String UPSERT_TEAM =
      """
      INSERT INTO platform.roster_team (team_id, owner_id, status, revision, updated_at)
      VALUES (:team, :owner, :status, :revision, now())
      ON CONFLICT (team_id) DO UPDATE
        SET owner_id = excluded.owner_id, status = excluded.status,
            revision = excluded.revision, updated_at = now()
        WHERE platform.roster_team.revision < excluded.revision
      """;

  private static final String CHANGE_STATUS =
      """
      UPDATE platform.roster_team SET status = :status, revision = :revision, updated_at = now()
      WHERE team_id = :team AND revision < :revision
      """;

  private final DatabaseClient db;
  private final EventCodec codec;
  private final Duration tombstoneRetention;
  private final Clock clock;

  /** With the default tombstone retention and the system clock. */
  public Rosters(DatabaseClient db, EventCodec codec) {
    this(db, codec, RosterProperties.DEFAULT_TOMBSTONE_RETENTION, Clock.systemUTC());
  }

  /**
   * @param tombstoneRetention how long tombstones are kept: an event older than that is ignored
   * @param clock what "older" is measured against
   */
  public Rosters(DatabaseClient db, EventCodec codec, Duration tombstoneRetention, Clock clock) {
    this.db = db;
    this.codec = codec;
    this.tombstoneRetention = tombstoneRetention;
    this.clock = clock;
  }

  /**
   * The roster of a team, empty when this service has not learned of the team. A deleted team is
   * answered with status {@code deleted} and no members.
   */
  public Mono<Roster> find(UUID teamId) {
    // One statement: one round trip, and the team and its members from the same snapshot (two
    // queries could straddle the commit of a roster change).
    return db.sql(
            """
            SELECT t.owner_id, t.status, t.revision,
                   m.name, m.agent_id, m.lead, m.conversation_id
            FROM platform.roster_team t
            LEFT JOIN platform.roster_member m ON m.team_id = t.team_id
            WHERE t.team_id = :team
            ORDER BY m.name
            """)
        .bind("team", teamId)
        .map(
            row ->
                new RosterRow(
                    row.get("owner_id", String.class),
                    TeamStatus.fromWire(row.get("status", String.class)),
                    row.get("revision", Long.class),
                    row.get("name", String.class) == null
                        ? null
                        : new Roster.Member(
                            row.get("name", String.class),
                            row.get("agent_id", String.class),
                            Boolean.TRUE.equals(row.get("lead", Boolean.class)),
                            row.get("conversation_id", String.class))))
        .all()
        .collectList()
        .filter(rows -> !rows.isEmpty())
        .map(
            rows -> {
              RosterRow team = rows.get(0);
              List<Roster.Member> members =
                  rows.stream().map(RosterRow::member).filter(Objects::nonNull).toList();
              return new Roster(teamId, team.ownerId(), team.status(), team.revision(), members);
            });
  }

  private record RosterRow(
      String ownerId, TeamStatus status, long revision, Roster.@Nullable Member member) {}

  /**
   * Applies team events to the projection; events older than what it holds change nothing, and so
   * does an event older than the tombstone retention (its team's tombstone may be purged already).
   */
  public EventHandler handler() {
    return event -> {
      if (event.occurredAt().isBefore(clock.instant().minus(tombstoneRetention))) {
        return Mono.empty();
      }
      return apply(event);
    };
  }

  private Mono<Void> apply(EventEnvelope event) {
    return switch (event.type()) {
      case TeamCreated.TYPE -> created(codec.data(event, TeamCreated.class));
      case TeamReady.TYPE -> status(codec.data(event, TeamReady.class), TeamStatus.READY);
      case TeamReconnected.TYPE ->
          status(codec.data(event, TeamReconnected.class), TeamStatus.READY);
      case TeamFailed.TYPE -> status(codec.data(event, TeamFailed.class), TeamStatus.FAILED);
      case TeamDisconnected.TYPE ->
          status(codec.data(event, TeamDisconnected.class), TeamStatus.DISCONNECTED);
      case TeamDeleted.TYPE -> deleted(event, codec.data(event, TeamDeleted.class));
      default -> Mono.empty();
    };
  }

  private Mono<Void> created(TeamCreated created) {
    UUID team = UUID.fromString(created.teamId());
    return db.sql(UPSERT_TEAM)
        .bind("team", team)
        .bind("owner", created.ownerId())
        .bind("status", TeamStatus.fromWire(created.status()).wire())
        .bind("revision", created.teamRevision())
        .fetch()
        .rowsUpdated()
        .flatMap(updated -> updated == 0 ? Mono.empty() : replaceMembers(team, created.members()));
  }

  private Mono<Void> status(TeamEvent change, TeamStatus status) {
    return db.sql(CHANGE_STATUS)
        .bind("team", UUID.fromString(change.teamId()))
        .bind("status", status.wire())
        .bind("revision", change.teamRevision())
        .fetch()
        .rowsUpdated()
        .then();
  }

  // An upsert, so the tombstone also stands when the projection never saw the team's creation.
  private Mono<Void> deleted(EventEnvelope event, TeamDeleted deleted) {
    UUID team = UUID.fromString(deleted.teamId());
    return db.sql(UPSERT_TEAM)
        .bind("team", team)
        .bind("owner", event.ownerId())
        .bind("status", TeamStatus.DELETED.wire())
        .bind("revision", deleted.teamRevision())
        .fetch()
        .rowsUpdated()
        .flatMap(updated -> updated == 0 ? Mono.empty() : replaceMembers(team, List.of()));
  }

  private Mono<Void> replaceMembers(UUID team, List<RosterMember> roster) {
    return db.sql("DELETE FROM platform.roster_member WHERE team_id = :team")
        .bind("team", team)
        .fetch()
        .rowsUpdated()
        .thenMany(Flux.fromIterable(roster))
        .concatMap(member -> insertMember(team, member))
        .then();
  }

  private Mono<Long> insertMember(UUID team, RosterMember member) {
    return db.sql(
            "INSERT INTO platform.roster_member (team_id, name, agent_id, lead, conversation_id)"
                + " VALUES (:team, :name, :agent, :lead, :conversation)")
        .bind("team", team)
        .bind("name", member.name())
        .bind("agent", member.agentId())
        .bind("lead", member.lead())
        .bind("conversation", member.conversationId())
        .fetch()
        .rowsUpdated();
  }
}
