package io.agentteams.platform.roster;

import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.consumer.EventHandler;
import io.agentteams.platform.event.EventCodec;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads and maintains the roster projection. */
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

  private final DatabaseClient db;
  private final EventCodec codec;

  public Rosters(DatabaseClient db, EventCodec codec) {
    this.db = db;
    this.codec = codec;
  }

  /** The roster of a team, empty when this service has not learned of the team. */
  public Mono<Roster> find(UUID teamId) {
    Mono<Roster> team =
        db.sql("SELECT owner_id, status, revision FROM platform.roster_team WHERE team_id = :team")
            .bind("team", teamId)
            .map(
                row ->
                    new Roster(
                        teamId,
                        row.get("owner_id", String.class),
                        row.get("status", String.class),
                        row.get("revision", Long.class),
                        java.util.List.of()))
            .one();
    Mono<java.util.List<Roster.Member>> members =
        db.sql(
                "SELECT name, agent_id, lead, conversation_id FROM platform.roster_member"
                    + " WHERE team_id = :team ORDER BY name")
            .bind("team", teamId)
            .map(
                row ->
                    new Roster.Member(
                        row.get("name", String.class),
                        row.get("agent_id", String.class),
                        Boolean.TRUE.equals(row.get("lead", Boolean.class)),
                        row.get("conversation_id", String.class)))
            .all()
            .collectList();
    return team.zipWith(
        members, (t, m) -> new Roster(t.teamId(), t.ownerId(), t.status(), t.revision(), m));
  }

  /** Applies team events to the projection; events older than what it holds change nothing. */
  public EventHandler handler() {
    return event -> {
      if (!TeamCreated.TYPE.equals(event.type())) {
        return Mono.empty();
      }
      TeamCreated created = codec.data(event, TeamCreated.class);
      UUID team = UUID.fromString(created.teamId());
      return db.sql(UPSERT_TEAM)
          .bind("team", team)
          .bind("owner", created.ownerId())
          .bind("status", created.status())
          .bind("revision", created.teamRevision())
          .fetch()
          .rowsUpdated()
          .flatMap(updated -> updated == 0 ? Mono.empty() : replaceMembers(team, created));
    };
  }

  private Mono<Void> replaceMembers(UUID team, TeamCreated created) {
    return db.sql("DELETE FROM platform.roster_member WHERE team_id = :team")
        .bind("team", team)
        .fetch()
        .rowsUpdated()
        .thenMany(Flux.fromIterable(created.members()))
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
