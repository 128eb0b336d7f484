package io.agentteams.team.agents.persistence;

import io.agentteams.team.agents.domain.Agent;
import io.agentteams.team.agents.domain.AgentId;
import io.agentteams.team.agents.domain.AgentRuntime;
import io.agentteams.team.agents.domain.RuntimeKind;
import io.r2dbc.spi.Readable;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores the owners' agent catalogs. */
@Repository
public class AgentStore {

  private static final String COLUMNS =
      "id, owner_id, name, description, runtime_kind, endpoint, tool_groups, revision,"
          + " created_at, updated_at";

  private final DatabaseClient db;

  public AgentStore(DatabaseClient db) {
    this.db = db;
  }

  /** Inserts the agent unless its id is taken in the owner's catalog; emits whether it did. */
  public Mono<Boolean> insert(Agent agent) {
    return bind(
            db.sql(
                """
                INSERT INTO agent (owner_id, id, name, description, name_folded,
                    description_folded, runtime_kind, endpoint, tool_groups, revision,
                    created_at, updated_at)
                VALUES (:owner, :id, :name, :description, :nameFolded, :descriptionFolded,
                    :runtime, :endpoint, :toolGroups, :revision, :created, :updated)
                ON CONFLICT (owner_id, id) DO NOTHING
                """),
            agent)
        .fetch()
        .rowsUpdated()
        .map(inserted -> inserted > 0);
  }

  /** Writes the agent's fields back. */
  public Mono<Void> update(Agent agent) {
    return bind(
            db.sql(
                """
                UPDATE agent SET name = :name, description = :description,
                    name_folded = :nameFolded, description_folded = :descriptionFolded,
                    runtime_kind = :runtime, endpoint = :endpoint, tool_groups = :toolGroups,
                    revision = :revision, created_at = :created, updated_at = :updated
                WHERE owner_id = :owner AND id = :id
                """),
            agent)
        .fetch()
        .rowsUpdated()
        .then();
  }

  private static DatabaseClient.GenericExecuteSpec bind(
      DatabaseClient.GenericExecuteSpec spec, Agent agent) {
    spec =
        spec.bind("owner", agent.ownerId())
            .bind("id", agent.id().value())
            .bind("name", agent.name())
            .bind("description", agent.description())
            .bind("nameFolded", fold(agent.name()))
            .bind("descriptionFolded", fold(agent.description()))
            .bind("runtime", agent.runtime().kind().wire())
            .bind("toolGroups", agent.toolGroups().toArray(String[]::new))
            .bind("revision", agent.revision())
            .bind("created", OffsetDateTime.ofInstant(agent.createdAt(), ZoneOffset.UTC))
            .bind("updated", OffsetDateTime.ofInstant(agent.updatedAt(), ZoneOffset.UTC));
    String endpoint = agent.runtime().endpoint();
    return endpoint == null
        ? spec.bindNull("endpoint", String.class)
        : spec.bind("endpoint", endpoint);
  }

  /** The text search compares: Java's Unicode lowercase, the same for stored text and queries. */
  public static String fold(String text) {
    return text.toLowerCase(Locale.ROOT);
  }

  /** The owner's agent. */
  public Mono<Agent> find(String ownerId, AgentId id) {
    return db.sql("SELECT " + COLUMNS + " FROM agent WHERE owner_id = :owner AND id = :id")
        .bind("owner", ownerId)
        .bind("id", id.value())
        .map(AgentStore::agent)
        .one();
  }

  /** The owner's agent, locked for update until the transaction ends. */
  public Mono<Agent> lock(String ownerId, AgentId id) {
    return db.sql(
            "SELECT " + COLUMNS + " FROM agent WHERE owner_id = :owner AND id = :id FOR UPDATE")
        .bind("owner", ownerId)
        .bind("id", id.value())
        .map(AgentStore::agent)
        .one();
  }

  /**
   * Up to {@code limit} of the owner's teams that are not deleted and have the agent as a member,
   * oldest first.
   */
  public Flux<UUID> liveTeamsWith(String ownerId, AgentId id, int limit) {
    return db.sql(
            "SELECT t.id FROM team t JOIN team_member m ON m.team_id = t.id"
                + " WHERE t.owner_id = :owner AND m.agent_id = :id AND t.status <> 'deleted'"
                + " GROUP BY t.id, t.created_at ORDER BY t.created_at LIMIT :limit")
        .bind("owner", ownerId)
        .bind("id", id.value())
        .bind("limit", limit)
        .map(row -> row.get("id", UUID.class))
        .all();
  }

  /** Deletes the owner's agent. */
  public Mono<Void> delete(String ownerId, AgentId id) {
    return db.sql("DELETE FROM agent WHERE owner_id = :owner AND id = :id")
        .bind("owner", ownerId)
        .bind("id", id.value())
        .then();
  }

  /** The runtimes of those of the ids that are in the owner's catalog, by id. */
  public Mono<Map<String, AgentRuntime>> runtimes(String ownerId, Collection<String> ids) {
    if (ids.isEmpty()) {
      return Mono.just(Map.of());
    }
    return db.sql(
            // Shared row locks: an agent cannot be deleted while a team that names it is made.
            "SELECT id, runtime_kind, endpoint FROM agent"
                + " WHERE owner_id = :owner AND id = ANY(:ids) FOR SHARE")
        .bind("owner", ownerId)
        .bind("ids", ids.toArray(String[]::new))
        .map(
            row ->
                Map.entry(
                    row.get("id", String.class),
                    new AgentRuntime(
                        RuntimeKind.fromWire(row.get("runtime_kind", String.class)),
                        row.get("endpoint", String.class))))
        .all()
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /** How many agents the owner has. */
  public Mono<Long> count(String ownerId) {
    return db.sql("SELECT count(*) AS n FROM agent WHERE owner_id = :owner")
        .bind("owner", ownerId)
        .map(row -> row.get("n", Long.class))
        .one();
  }

  /** Serialises registrations per owner until the transaction ends, so the count stays true. */
  public Mono<Void> lockOwner(String ownerId) {
    return db.sql("SELECT pg_advisory_xact_lock(hashtext('agent-owner:' || :owner))")
        .bind("owner", ownerId)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /**
   * One page of the owner's agents in (name, id) order, after the given position, optionally only
   * those whose name or description contains the folded query.
   */
  public Flux<Agent> search(
      String ownerId,
      @Nullable String foldedQuery,
      @Nullable String afterName,
      @Nullable String afterId,
      int limit) {
    StringBuilder sql =
        new StringBuilder("SELECT " + COLUMNS + " FROM agent WHERE owner_id = :owner");
    if (foldedQuery != null) {
      sql.append(" AND (strpos(name_folded, :q) > 0 OR strpos(description_folded, :q) > 0)");
    }
    if (afterName != null && afterId != null) {
      sql.append(" AND (name, id) > (:afterName, :afterId)");
    }
    sql.append(" ORDER BY name, id LIMIT :limit");
    DatabaseClient.GenericExecuteSpec query =
        db.sql(sql.toString()).bind("owner", ownerId).bind("limit", limit);
    if (foldedQuery != null) {
      query = query.bind("q", foldedQuery);
    }
    if (afterName != null && afterId != null) {
      query = query.bind("afterName", afterName).bind("afterId", afterId);
    }
    return query.map(AgentStore::agent).all();
  }

  private static Agent agent(Readable row) {
    String[] groups = row.get("tool_groups", String[].class);
    return new Agent(
        new AgentId(row.get("id", String.class)),
        row.get("owner_id", String.class),
        row.get("name", String.class),
        row.get("description", String.class),
        new AgentRuntime(
            RuntimeKind.fromWire(row.get("runtime_kind", String.class)),
            row.get("endpoint", String.class)),
        groups == null ? List.of() : List.of(groups),
        row.get("revision", Long.class),
        row.get("created_at", OffsetDateTime.class).toInstant(),
        row.get("updated_at", OffsetDateTime.class).toInstant());
  }
}
