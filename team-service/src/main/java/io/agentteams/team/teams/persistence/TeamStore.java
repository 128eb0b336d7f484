package io.agentteams.team.teams.persistence;

import io.agentteams.team.teams.domain.Member;
import io.agentteams.team.teams.domain.MemberName;
import io.agentteams.team.teams.domain.Team;
import io.agentteams.team.teams.domain.TeamStatus;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores teams and their members. */
@Repository
public class TeamStore {

  private final DatabaseClient db;

  public TeamStore(DatabaseClient db) {
    this.db = db;
  }

  /** Inserts a new team with its members. */
  public Mono<Void> insert(Team team) {
    OffsetDateTime created = OffsetDateTime.ofInstant(team.createdAt(), ZoneOffset.UTC);
    Mono<Long> teamRow =
        db.sql(
                """
                INSERT INTO team (id, owner_id, name, goal, status, revision, created_at, updated_at)
                VALUES (:id, :owner, :name, :goal, :status, :revision, :created, :created)
                """)
            .bind("id", team.id())
            .bind("owner", team.ownerId())
            .bind("name", team.name())
            .bind("goal", team.goal())
            .bind("status", team.status().wire())
            .bind("revision", team.revision())
            .bind("created", created)
            .fetch()
            .rowsUpdated();
    Flux<Long> memberRows =
        Flux.range(0, team.members().size())
            .concatMap(
                position -> {
                  Member member = team.members().get(position);
                  return db.sql(
                          """
                          INSERT INTO team_member (team_id, name, agent_id, lead, conversation_id, position)
                          VALUES (:team, :name, :agent, :lead, :conversation, :position)
                          """)
                      .bind("team", team.id())
                      .bind("name", member.name().value())
                      .bind("agent", member.agentId())
                      .bind("lead", member.lead())
                      .bind("conversation", member.conversationId())
                      .bind("position", position)
                      .fetch()
                      .rowsUpdated();
                });
    return teamRow.thenMany(memberRows).then();
  }

  /** Teams of the owner that are not deleted. */
  public Mono<Long> countActive(String ownerId) {
    return db.sql("SELECT count(*) AS n FROM team WHERE owner_id = :owner AND status <> 'deleted'")
        .bind("owner", ownerId)
        .map(row -> row.get("n", Long.class))
        .one();
  }

  /** Serialises team creation per owner until the transaction ends, so the count stays true. */
  public Mono<Void> lockOwner(String ownerId) {
    return db.sql("SELECT pg_advisory_xact_lock(hashtext('team-owner:' || :owner))")
        .bind("owner", ownerId)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** The team, whoever owns it; callers check ownership. */
  public Mono<Team> find(UUID id) {
    return db.sql(
            "SELECT id, owner_id, name, goal, status, revision, created_at FROM team WHERE id = :id")
        .bind("id", id)
        .map(
            row ->
                new TeamRow(
                    row.get("id", UUID.class),
                    row.get("owner_id", String.class),
                    row.get("name", String.class),
                    row.get("goal", String.class),
                    row.get("status", String.class),
                    row.get("revision", Long.class),
                    row.get("created_at", OffsetDateTime.class).toInstant()))
        .one()
        .flatMap(row -> members(id).map(row::toTeam));
  }

  /** The owner's teams, newest first. */
  public Flux<Team> findByOwner(String ownerId) {
    return db.sql(
            "SELECT id FROM team WHERE owner_id = :owner AND status <> 'deleted' ORDER BY created_at DESC")
        .bind("owner", ownerId)
        .map(row -> row.get("id", UUID.class))
        .all()
        .concatMap(this::find);
  }

  private Mono<List<Member>> members(UUID teamId) {
    return db.sql(
            "SELECT name, agent_id, lead, conversation_id FROM team_member WHERE team_id = :team ORDER BY position")
        .bind("team", teamId)
        .map(
            row ->
                new Member(
                    new MemberName(row.get("name", String.class)),
                    row.get("agent_id", String.class),
                    Boolean.TRUE.equals(row.get("lead", Boolean.class)),
                    row.get("conversation_id", String.class)))
        .all()
        .collectList();
  }

  private record TeamRow(
      UUID id,
      String ownerId,
      String name,
      String goal,
      String status,
      long revision,
      Instant createdAt) {

    Team toTeam(List<Member> members) {
      return new Team(
          id, ownerId, name, goal, TeamStatus.fromWire(status), members, revision, createdAt);
    }
  }
}
