package io.agentteams.team.teams.persistence;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.team.agents.domain.AgentRuntime;
import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.domain.ConversationOutcome;
import io.agentteams.team.teams.domain.Member;
import io.agentteams.team.teams.domain.MemberName;
import io.agentteams.team.teams.domain.MemberStatus;
import io.agentteams.team.teams.domain.Team;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores teams, their members' bindings and provisioning records. */
@Repository
public class TeamStore {

  private static final String TEAM_COLUMNS =
      "id, owner_id, name, goal, status, status_reason, provisioning_round, revision, created_at";

  private final DatabaseClient db;

  public TeamStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Inserts a new team with its members and one pending provisioning record per member, due for
   * provisioning at once.
   */
  public Mono<Void> insert(Team team) {
    OffsetDateTime created = OffsetDateTime.ofInstant(team.createdAt(), ZoneOffset.UTC);
    Mono<Long> teamRow =
        db.sql(
                """
                INSERT INTO team (id, owner_id, name, goal, status, status_reason, revision,
                                  provisioning_round, provisioning_due_at, created_at, updated_at)
                VALUES (:id, :owner, :name, :goal, :status, NULL, :revision, :round, now(),
                        :created, :created)
                """)
            .bind("id", team.id())
            .bind("owner", team.ownerId())
            .bind("name", team.name())
            .bind("goal", team.goal())
            .bind("status", team.status().wire())
            .bind("revision", team.revision())
            .bind("round", team.round())
            .bind("created", created)
            .fetch()
            .rowsUpdated();
    Flux<Long> memberRows =
        Flux.range(0, team.members().size())
            .concatMap(
                position -> {
                  Member member = team.members().get(position);
                  DatabaseClient.GenericExecuteSpec row =
                      db.sql(
                              """
                              INSERT INTO team_member (team_id, name, agent_id, lead,
                                  conversation_id, position, runtime_kind, endpoint)
                              VALUES (:team, :name, :agent, :lead, :conversation, :position,
                                  :runtime, :endpoint)
                              """)
                          .bind("team", team.id())
                          .bind("name", member.name().value())
                          .bind("agent", member.agentId())
                          .bind("lead", member.lead())
                          .bind("conversation", member.conversationId())
                          .bind("position", position)
                          .bind("runtime", member.runtime().kind().wire());
                  row = bindNullable(row, "endpoint", member.runtime().endpoint());
                  Mono<Long> record =
                      db.sql(
                              """
                              INSERT INTO member_provisioning (team_id, member_name, round, status)
                              VALUES (:team, :name, :round, :status)
                              """)
                          .bind("team", team.id())
                          .bind("name", member.name().value())
                          .bind("round", team.round())
                          .bind("status", member.status().wire())
                          .fetch()
                          .rowsUpdated();
                  return row.fetch().rowsUpdated().then(record);
                });
    return teamRow.thenMany(memberRows).then();
  }

  /**
   * Writes the team's lifecycle back: status, reason, round, revision and each member's record.
   * Provisioning stays due while a round is under way (keeping a claim's lease) and stops being due
   * when it is over.
   */
  public Mono<Void> save(Team team) {
    Mono<Long> teamRow =
        bindNullable(
                db.sql(
                        """
                        UPDATE team SET status = :status, status_reason = :reason,
                            provisioning_round = :round, revision = :revision, updated_at = now(),
                            provisioning_due_at = CASE WHEN :provisioning
                                THEN coalesce(provisioning_due_at, now()) ELSE NULL END
                        WHERE id = :id
                        """)
                    .bind("id", team.id())
                    .bind("status", team.status().wire())
                    .bind("round", team.round())
                    .bind("revision", team.revision())
                    .bind("provisioning", team.isProvisioning()),
                "reason",
                team.statusReason())
            .fetch()
            .rowsUpdated();
    Flux<Long> records =
        Flux.fromIterable(team.members())
            .concatMap(
                member ->
                    bindNullable(
                            db.sql(
                                    """
                                    UPDATE member_provisioning SET status = :status,
                                        outcome = :outcome,
                                        attempts = CASE WHEN round = :round THEN attempts ELSE 0 END,
                                        last_error = CASE WHEN round = :round THEN last_error END,
                                        round = :round, updated_at = now()
                                    WHERE team_id = :team AND member_name = :name
                                    """)
                                .bind("team", team.id())
                                .bind("name", member.name().value())
                                .bind("status", member.status().wire())
                                .bind("round", team.round()),
                            "outcome",
                            member.outcome() == null ? null : member.outcome().wire())
                        .fetch()
                        .rowsUpdated());
    return teamRow.thenMany(records).then();
  }

  /** Removes what this system recorded about a deleted team, keeping the team row as tombstone. */
  public Mono<Void> eraseContent(UUID teamId) {
    return db.sql("DELETE FROM team_member WHERE team_id = :team")
        .bind("team", teamId)
        .fetch()
        .rowsUpdated()
        .then(
            db.sql("DELETE FROM state_entry WHERE team_id = :team")
                .bind("team", teamId)
                .fetch()
                .rowsUpdated())
        .then(
            db.sql("UPDATE team SET goal = '', provisioning_due_at = NULL WHERE id = :team")
                .bind("team", teamId)
                .fetch()
                .rowsUpdated())
        .then();
  }

  /**
   * Purges at most {@code batch} tombstones of teams deleted before {@code before}; rows another
   * replica is purging are skipped.
   *
   * @return how many were purged
   */
  public Mono<Long> purgeTombstones(Instant before, int batch) {
    return db.sql(
            """
            DELETE FROM team WHERE id IN (
              SELECT id FROM team WHERE status = 'deleted' AND updated_at < :before
              ORDER BY updated_at LIMIT :batch FOR UPDATE SKIP LOCKED)
            """)
        .bind("before", before)
        .bind("batch", batch)
        .fetch()
        .rowsUpdated();
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
    return load("SELECT " + TEAM_COLUMNS + " FROM team WHERE id = :id", id, -1);
  }

  /** The team, locked for update until the transaction ends. */
  public Mono<Team> lock(UUID id) {
    return load("SELECT " + TEAM_COLUMNS + " FROM team WHERE id = :id FOR UPDATE", id, -1);
  }

  /**
   * The team locked for update, only while a provisioning round is under way and the claim with
   * {@code fence} is still the latest; empty when another worker took over or the team moved on.
   */
  public Mono<Team> lockFenced(UUID id, long fence) {
    return load(
        "SELECT "
            + TEAM_COLUMNS
            + " FROM team WHERE id = :id AND provisioning_fence = :fence"
            + " AND status IN ('provisioning', 'disconnected') FOR UPDATE",
        id,
        fence);
  }

  /** The owner's teams that are not deleted, newest first. */
  public Flux<Team> findByOwner(String ownerId) {
    return db.sql(
            "SELECT id FROM team WHERE owner_id = :owner AND status <> 'deleted'"
                + " ORDER BY created_at DESC, id")
        .bind("owner", ownerId)
        .map(row -> row.get("id", UUID.class))
        .all()
        .concatMap(this::find);
  }

  private Mono<Team> load(String sql, UUID id, long fence) {
    DatabaseClient.GenericExecuteSpec query = db.sql(sql).bind("id", id);
    if (fence >= 0) {
      query = query.bind("fence", fence);
    }
    return query.map(TeamRow::of).one().flatMap(row -> members(id).map(row::toTeam));
  }

  private Mono<List<Member>> members(UUID teamId) {
    return db.sql(
            """
            SELECT m.name, m.agent_id, m.lead, m.conversation_id, m.runtime_kind, m.endpoint,
                   p.status, p.outcome
            FROM team_member m
            LEFT JOIN member_provisioning p ON p.team_id = m.team_id AND p.member_name = m.name
            WHERE m.team_id = :team ORDER BY m.position
            """)
        .bind("team", teamId)
        .map(
            row -> {
              String status = row.get("status", String.class);
              String outcome = row.get("outcome", String.class);
              return new Member(
                  new MemberName(row.get("name", String.class)),
                  row.get("agent_id", String.class),
                  Boolean.TRUE.equals(row.get("lead", Boolean.class)),
                  row.get("conversation_id", String.class),
                  new AgentRuntime(
                      RuntimeKind.fromWire(row.get("runtime_kind", String.class)),
                      row.get("endpoint", String.class)),
                  status == null ? MemberStatus.PENDING : MemberStatus.fromWire(status),
                  outcome == null ? null : ConversationOutcome.fromWire(outcome));
            })
        .all()
        .collectList();
  }

  static DatabaseClient.GenericExecuteSpec bindNullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable String value) {
    return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
  }

  private record TeamRow(
      UUID id,
      String ownerId,
      String name,
      String goal,
      String status,
      @Nullable String statusReason,
      int round,
      long revision,
      Instant createdAt) {

    static TeamRow of(Readable row) {
      return new TeamRow(
          row.get("id", UUID.class),
          row.get("owner_id", String.class),
          row.get("name", String.class),
          row.get("goal", String.class),
          row.get("status", String.class),
          row.get("status_reason", String.class),
          row.get("provisioning_round", Integer.class),
          row.get("revision", Long.class),
          row.get("created_at", OffsetDateTime.class).toInstant());
    }

    Team toTeam(List<Member> members) {
      return new Team(
          id,
          ownerId,
          name,
          goal,
          TeamStatus.fromWire(status),
          statusReason,
          members,
          round,
          revision,
          createdAt);
    }
  }
}
