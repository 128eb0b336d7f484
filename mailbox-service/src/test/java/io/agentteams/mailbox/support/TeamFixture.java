package io.agentteams.mailbox.support;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Teams as this service learns of them: a {@code TeamCreated} event on the team topic, then a wait
 * until the roster projection holds the team. Also mints the internal tokens callers present.
 */
public final class TeamFixture {

  private final KafkaTemplate<Object, Object> kafka;
  private final EventCodec codec;
  private final Rosters rosters;
  private final CallerTokens tokens;

  public TeamFixture(
      KafkaTemplate<Object, Object> kafka, EventCodec codec, Rosters rosters, CallerTokens tokens) {
    this.kafka = kafka;
    this.codec = codec;
    this.rosters = rosters;
    this.tokens = tokens;
  }

  /** A team of the owner with these members (the first is the lead), known to this service. */
  public Team team(String ownerId, String... members) {
    UUID teamId = UUID.randomUUID();
    List<RosterMember> roster =
        java.util.stream.IntStream.range(0, members.length)
            .mapToObj(
                i ->
                    new RosterMember(
                        members[i],
                        "agent-" + members[i],
                        i == 0,
                        "conv-" + members[i] + "-" + teamId))
            .toList();
    TeamCreated created =
        new TeamCreated(teamId.toString(), ownerId, "Team", "Goal", "provisioning", roster, 1);
    EventEnvelope envelope = codec.envelope(created, teamId.toString(), ownerId, 1, null);
    kafka.send(Topics.TEAM_EVENTS, teamId.toString(), codec.write(envelope)).join();
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> rosters.find(teamId).blockOptional().isPresent());
    return new Team(teamId, ownerId, List.of(members));
  }

  /** A bearer header for the owner. */
  public String owner(String ownerId) {
    return bearer(new Caller.Owner(ownerId));
  }

  /** A bearer header for a member of the team. */
  public String member(Team team, String member) {
    return bearer(new Caller.Member(team.ownerId(), team.id(), member, null));
  }

  /** A bearer header for a member acting within a job. */
  public String member(Team team, String member, @Nullable UUID jobId) {
    return bearer(new Caller.Member(team.ownerId(), team.id(), member, jobId));
  }

  /** A bearer header for another service. */
  public String service(String name) {
    return bearer(new Caller.Service(name));
  }

  /** A bearer header for an agent worker. */
  public String worker(String ownerId) {
    return bearer(new Caller.Worker(ownerId, "agent-x"));
  }

  private String bearer(Caller caller) {
    return "Bearer " + tokens.issue(caller, Duration.ofMinutes(10));
  }

  /**
   * A team as the tests know it.
   *
   * @param id the team id
   * @param ownerId its owner
   * @param members its members' names, lead first
   */
  public record Team(UUID id, String ownerId, List<String> members) {}
}
