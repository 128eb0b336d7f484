package io.agentteams.scheduler.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.secrets.SecretSealer;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.scheduler.job.application.JobCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Teams as the scheduler learns of them: a {@code TeamCreated} event on the team topic, applied by
 * the roster projection. Remembers the teams it made so a test can cancel their unfinished jobs and
 * leave the shared slots free for the next test.
 */
public final class Teams {

  /** A team this fixture created; members map name to agent id. */
  public record Team(UUID id, String ownerId, Map<String, String> agents) {
    public String agentOf(String member) {
      return agents.get(member);
    }
  }

  /** Seals as team-service does, for the test identity's scheduler key. */
  private static final SecretSealer SEALER =
      new SecretSealer(SecretKeys.sealing(TestIdentity.sealingKeys(), "sealing"));

  private final KafkaTemplate<Object, Object> kafka;
  private final EventCodec codec;
  private final Rosters rosters;
  private final DatabaseClient db;
  private final JobCommands commands;
  private final List<Team> created = new ArrayList<>();

  public Teams(
      KafkaTemplate<Object, Object> kafka,
      EventCodec codec,
      Rosters rosters,
      DatabaseClient db,
      JobCommands commands) {
    this.kafka = kafka;
    this.codec = codec;
    this.rosters = rosters;
    this.db = db;
    this.commands = commands;
  }

  /** A team of the owner whose members (name to agent id) each have their own conversation. */
  public Team create(String ownerId, Map<String, String> members) {
    return create(ownerId, members, null);
  }

  /** Like {@link #create(String, Map)}, with {@code lead} (a member's name, or null) leading it. */
  public Team create(String ownerId, Map<String, String> members, @Nullable String lead) {
    UUID teamId = UUID.randomUUID();
    List<RosterMember> roster =
        members.entrySet().stream()
            .map(
                m ->
                    new RosterMember(
                        m.getKey(),
                        m.getValue(),
                        m.getKey().equals(lead),
                        "conv-" + UUID.randomUUID()))
            .toList();
    TeamCreated event =
        new TeamCreated(teamId.toString(), ownerId, "team", "goal", "ready", roster, 1);
    EventEnvelope envelope = codec.envelope(event, teamId.toString(), ownerId, 1, null);
    kafka.send(Topics.TEAM_EVENTS, teamId.toString(), codec.write(envelope)).join();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> rosters.find(teamId).blockOptional().isPresent());
    Team team = new Team(teamId, ownerId, Map.copyOf(members));
    created.add(team);
    return team;
  }

  /**
   * Says, as team-service does when an agent is registered, that the owner's agent runs as a pull
   * worker, and waits until the scheduler knows it.
   */
  public void pullAgent(String ownerId, String agentId) {
    runtimeAgent(ownerId, agentId, "pull", null, null);
  }

  /**
   * Says, as team-service does when an agent is registered, that the owner's agent runs as {@code
   * kind} (pull, webhook or a2a) at {@code endpoint}, its webhook secret (if any) sealed for the
   * scheduler as team-service seals it, and waits until the scheduler knows it.
   */
  public void runtimeAgent(
      String ownerId,
      String agentId,
      String kind,
      @Nullable String endpoint,
      @Nullable String webhookSecret) {
    String sealed =
        webhookSecret == null
            ? null
            : SEALER.seal(
                Map.of(
                    AgentRuntimeChanged.OWNER_HEADER, ownerId,
                    AgentRuntimeChanged.AGENT_HEADER, agentId),
                Map.of(AgentRuntimeChanged.CURRENT, webhookSecret));
    runtimeChanged(new AgentRuntimeChanged(ownerId, agentId, kind, endpoint, sealed, null, 1));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                db.sql(
                            "SELECT count(*) AS n FROM push_agent WHERE owner_id = :owner"
                                + " AND agent_id = :agent AND runtime_kind = :kind")
                        .bind("owner", ownerId)
                        .bind("agent", agentId)
                        .bind("kind", kind)
                        .map(row -> row.get("n", Long.class))
                        .one()
                        .block()
                    == 1);
  }

  /**
   * Publishes a runtime change as team-service does, under the key of the agent it names, and
   * returns at once (the scheduler applies it, or refuses it, in its own time).
   */
  public void runtimeChanged(AgentRuntimeChanged change) {
    runtimeChanged(AgentRuntimeChanged.key(change.ownerId(), change.agentId()), change);
  }

  /** Publishes a runtime change under the given Kafka key. */
  public void runtimeChanged(String key, AgentRuntimeChanged change) {
    EventEnvelope envelope = codec.envelope(change, key, change.ownerId(), change.version(), null);
    kafka.send(Topics.AGENT_RUNTIMES, key, codec.write(envelope)).join();
  }

  /** Cancels every unfinished job of the teams this fixture created. */
  public void cancelUnfinished() {
    for (Team team : created) {
      List<UUID> unfinished =
          db.sql(
                  "SELECT id FROM job WHERE team_id = :team"
                      + " AND state NOT IN ('completed', 'failed', 'cancelled', 'interrupted')")
              .bind("team", team.id())
              .map(row -> row.get("id", UUID.class))
              .all()
              .collectList()
              .block();
      for (UUID job : unfinished) {
        commands.cancel(new Caller.Owner(team.ownerId()), job).onErrorComplete().block();
      }
    }
    created.clear();
  }
}
