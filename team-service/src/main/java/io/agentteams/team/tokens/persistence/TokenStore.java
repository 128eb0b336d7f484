package io.agentteams.team.tokens.persistence;

import io.agentteams.team.tokens.domain.IssuedToken;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores the tokens handed to owners' agents and members, and their revocations. */
@Repository
public class TokenStore {

  private static final String COLUMNS =
      "id, owner_id, kind, agent_id, team_id, member, issued_at, expires_at, revoked_at";

  private final DatabaseClient db;

  public TokenStore(DatabaseClient db) {
    this.db = db;
  }

  /** Records a token the gateway is about to hand out. */
  public Mono<Void> insert(IssuedToken token) {
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(
                """
                INSERT INTO issued_token (id, owner_id, kind, agent_id, team_id, member,
                    issued_at, expires_at)
                VALUES (:id, :owner, :kind, :agent, :team, :member, :issued, :expires)
                """)
            .bind("id", token.id())
            .bind("owner", token.ownerId())
            .bind("kind", token.kind())
            .bind("issued", at(token.issuedAt()))
            .bind("expires", at(token.expiresAt()));
    insert = bindNullable(insert, "agent", token.agentId(), String.class);
    insert = bindNullable(insert, "team", token.teamId(), UUID.class);
    insert = bindNullable(insert, "member", token.member(), String.class);
    return insert.fetch().rowsUpdated().then();
  }

  /**
   * The owner's tokens that have not expired, newest first, optionally only an agent's or a
   * member's; at most {@code limit}.
   */
  public Flux<IssuedToken> live(
      String ownerId,
      @Nullable String agentId,
      @Nullable UUID teamId,
      @Nullable String member,
      Instant now,
      int limit) {
    DatabaseClient.GenericExecuteSpec select =
        db.sql(
                "SELECT "
                    + COLUMNS
                    + " FROM issued_token WHERE owner_id = :owner AND expires_at > :now"
                    + " AND (CAST(:agent AS text) IS NULL OR agent_id = :agent)"
                    + " AND (CAST(:team AS uuid) IS NULL OR team_id = :team)"
                    + " AND (CAST(:member AS text) IS NULL OR member = :member)"
                    + " ORDER BY issued_at DESC, id LIMIT :limit")
            .bind("owner", ownerId)
            .bind("now", at(now))
            .bind("limit", limit);
    select = bindNullable(select, "agent", agentId, String.class);
    select = bindNullable(select, "team", teamId, UUID.class);
    select = bindNullable(select, "member", member, String.class);
    return select.map(TokenStore::token).all();
  }

  /** Revokes one of the owner's live tokens; emits it if it was live and not yet revoked. */
  public Flux<IssuedToken> revokeOne(String ownerId, UUID id, Instant now) {
    return db.sql(
            "UPDATE issued_token SET revoked_at = :now WHERE owner_id = :owner AND id = :id"
                + " AND revoked_at IS NULL AND expires_at > :now RETURNING "
                + COLUMNS)
        .bind("owner", ownerId)
        .bind("id", id)
        .bind("now", at(now))
        .map(TokenStore::token)
        .all();
  }

  /** Whether the owner has (or recently had) a token of this id. */
  public Mono<Boolean> exists(String ownerId, UUID id) {
    return db.sql("SELECT 1 FROM issued_token WHERE owner_id = :owner AND id = :id")
        .bind("owner", ownerId)
        .bind("id", id)
        .map(row -> Boolean.TRUE)
        .one()
        .defaultIfEmpty(false);
  }

  /** Revokes every live token of the owner's agent; emits those it revoked. */
  public Flux<IssuedToken> revokeAgent(String ownerId, String agentId, Instant now) {
    return db.sql(
            "UPDATE issued_token SET revoked_at = :now WHERE owner_id = :owner"
                + " AND agent_id = :agent AND revoked_at IS NULL AND expires_at > :now RETURNING "
                + COLUMNS)
        .bind("owner", ownerId)
        .bind("agent", agentId)
        .bind("now", at(now))
        .map(TokenStore::token)
        .all();
  }

  /** Revokes every live token of a member of the owner's team; emits those it revoked. */
  public Flux<IssuedToken> revokeMember(String ownerId, UUID teamId, String member, Instant now) {
    return db.sql(
            "UPDATE issued_token SET revoked_at = :now WHERE owner_id = :owner"
                + " AND team_id = :team AND member = :member AND revoked_at IS NULL"
                + " AND expires_at > :now RETURNING "
                + COLUMNS)
        .bind("owner", ownerId)
        .bind("team", teamId)
        .bind("member", member)
        .bind("now", at(now))
        .map(TokenStore::token)
        .all();
  }

  /** Forgets the owner's tokens that expired before {@code before}. */
  public Mono<Long> forgetExpired(String ownerId, Instant before) {
    return db.sql("DELETE FROM issued_token WHERE owner_id = :owner AND expires_at < :before")
        .bind("owner", ownerId)
        .bind("before", at(before))
        .fetch()
        .rowsUpdated();
  }

  private static <T> DatabaseClient.GenericExecuteSpec bindNullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable T value, Class<T> type) {
    return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
  }

  private static OffsetDateTime at(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  private static IssuedToken token(Readable row) {
    OffsetDateTime revoked = row.get("revoked_at", OffsetDateTime.class);
    return new IssuedToken(
        row.get("id", UUID.class),
        row.get("owner_id", String.class),
        row.get("kind", String.class),
        row.get("agent_id", String.class),
        row.get("team_id", UUID.class),
        row.get("member", String.class),
        row.get("issued_at", OffsetDateTime.class).toInstant(),
        row.get("expires_at", OffsetDateTime.class).toInstant(),
        revoked == null ? null : revoked.toInstant());
  }
}
