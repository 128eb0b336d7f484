package io.agentteams.team.state.persistence;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.TeamRoster;
import io.agentteams.team.state.domain.Entry;
import io.agentteams.team.state.domain.EntryKind;
import io.agentteams.team.state.domain.EntryStatus;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Stores public state entries and the team's revisions. */
@Repository
public class StateStore {

  private static final String TEAM =
      "SELECT owner_id, status, revision, state_revision FROM team WHERE id = :team";

  private final DatabaseClient db;

  public StateStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * What a state write or read needs of its team: the owner, the status, the revisions and the
   * roster (each member's conversation, and whether it leads).
   */
  public record TeamHeader(
      UUID teamId,
      String ownerId,
      TeamStatus status,
      long revision,
      long stateRevision,
      Map<String, Seat> members)
      implements TeamRoster {

    public TeamHeader {
      members = Map.copyOf(members);
    }

    /**
     * One member's place on the roster.
     *
     * @param conversationId the member's conversation
     * @param lead whether it leads the team
     */
    public record Seat(String conversationId, boolean lead) {}

    @Override
    public Optional<TeamRoster.Seat> seat(String member) {
      return Optional.ofNullable(members.get(member))
          .map(seat -> new TeamRoster.Seat(member, seat.lead()));
    }
  }

  /**
   * The team, locked until the transaction ends: state writes of a team queue here, and so does its
   * deletion (which locks the row for update). A no-key update lock, so that what only needs the
   * team to go on existing (the scheduler's job events, key-share-locking it) does not wait behind
   * a state write.
   */
  public Mono<TeamHeader> lockTeam(UUID teamId) {
    return header(TEAM + " FOR NO KEY UPDATE", teamId);
  }

  /** The team as it is now. */
  public Mono<TeamHeader> team(UUID teamId) {
    return header(TEAM, teamId);
  }

  private Mono<TeamHeader> header(String sql, UUID teamId) {
    Mono<Map<String, TeamHeader.Seat>> members =
        db.sql("SELECT name, conversation_id, lead FROM team_member WHERE team_id = :team")
            .bind("team", teamId)
            .map(
                row ->
                    Map.entry(
                        row.get("name", String.class),
                        new TeamHeader.Seat(
                            row.get("conversation_id", String.class),
                            Boolean.TRUE.equals(row.get("lead", Boolean.class)))))
            .all()
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    return db.sql(sql)
        .bind("team", teamId)
        .map(
            row ->
                new TeamHeader(
                    teamId,
                    row.get("owner_id", String.class),
                    TeamStatus.fromWire(row.get("status", String.class)),
                    row.get("revision", Long.class),
                    row.get("state_revision", Long.class),
                    Map.of()))
        .one()
        .flatMap(
            header ->
                members.map(
                    roster ->
                        new TeamHeader(
                            teamId,
                            header.ownerId(),
                            header.status(),
                            header.revision(),
                            header.stateRevision(),
                            roster)));
  }

  /** Every entry of the team, archived ones included, in id order. */
  public Mono<List<Entry>> entries(UUID teamId) {
    return db.sql(
            """
            SELECT entry_id, kind, title, content, status, created_by, created_at, updated_by,
                   updated_at, source_conversation_id, source_job_id, revision, request_id,
                   publish_fingerprint, last_update_fingerprint
            FROM state_entry WHERE team_id = :team ORDER BY entry_id
            """)
        .bind("team", teamId)
        .map(StateStore::entry)
        .all()
        .collectList();
  }

  /** Inserts a new entry. */
  public Mono<Void> insert(UUID teamId, Entry entry) {
    return bind(
            db.sql(
                """
                INSERT INTO state_entry (team_id, entry_id, kind, title, content, status,
                    created_by, created_at, updated_by, updated_at, source_conversation_id,
                    source_job_id, revision, request_id, publish_fingerprint,
                    last_update_fingerprint)
                VALUES (:team, :id, :kind, :title, :content, :status, :createdBy, :createdAt,
                    :updatedBy, :updatedAt, :conversation, :job, :revision, :requestId,
                    :publishFingerprint, :updateFingerprint)
                """),
            teamId,
            entry)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Writes an updated entry back. */
  public Mono<Void> update(UUID teamId, Entry entry) {
    return bind(
            db.sql(
                """
                UPDATE state_entry SET kind = :kind, title = :title, content = :content,
                    status = :status, created_by = :createdBy, created_at = :createdAt,
                    updated_by = :updatedBy, updated_at = :updatedAt,
                    source_conversation_id = :conversation, source_job_id = :job,
                    revision = :revision, request_id = :requestId,
                    publish_fingerprint = :publishFingerprint,
                    last_update_fingerprint = :updateFingerprint
                WHERE team_id = :team AND entry_id = :id
                """),
            teamId,
            entry)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** Records the team's revisions after a state change. */
  public Mono<Void> saveRevisions(UUID teamId, long teamRevision, long stateRevision) {
    return db.sql(
            "UPDATE team SET revision = :revision, state_revision = :stateRevision,"
                + " updated_at = now() WHERE id = :team")
        .bind("team", teamId)
        .bind("revision", teamRevision)
        .bind("stateRevision", stateRevision)
        .fetch()
        .rowsUpdated()
        .then();
  }

  private static DatabaseClient.GenericExecuteSpec bind(
      DatabaseClient.GenericExecuteSpec spec, UUID teamId, Entry entry) {
    spec =
        spec.bind("team", teamId)
            .bind("id", entry.id())
            .bind("kind", entry.kind().wire())
            .bind("title", entry.title())
            .bind("content", entry.content())
            .bind("status", entry.status().wire())
            .bind("createdBy", entry.createdBy())
            .bind("createdAt", utc(entry.createdAt()))
            .bind("updatedBy", entry.updatedBy())
            .bind("updatedAt", utc(entry.updatedAt()))
            .bind("conversation", entry.sourceConversationId())
            .bind("revision", entry.revision())
            .bind("requestId", entry.requestId())
            .bind("publishFingerprint", entry.publishFingerprint());
    spec = nullable(spec, "job", entry.sourceJobId());
    return nullable(spec, "updateFingerprint", entry.lastUpdateFingerprint());
  }

  private static DatabaseClient.GenericExecuteSpec nullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable String value) {
    return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
  }

  private static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static Entry entry(Readable row) {
    return new Entry(
        row.get("entry_id", Long.class),
        EntryKind.fromWire(row.get("kind", String.class)),
        row.get("title", String.class),
        row.get("content", String.class),
        EntryStatus.fromWire(row.get("status", String.class)),
        row.get("created_by", String.class),
        row.get("created_at", OffsetDateTime.class).toInstant(),
        row.get("updated_by", String.class),
        row.get("updated_at", OffsetDateTime.class).toInstant(),
        row.get("source_conversation_id", String.class),
        row.get("source_job_id", String.class),
        row.get("revision", Long.class),
        row.get("request_id", String.class),
        row.get("publish_fingerprint", String.class),
        row.get("last_update_fingerprint", String.class));
  }
}
