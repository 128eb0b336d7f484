package io.agentteams.taskboard;

import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.taskboard.task.web.OutcomeView;
import io.agentteams.taskboard.task.web.TaskPageView;
import io.agentteams.taskboard.task.web.TaskView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.TestComponent;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec;

/**
 * Teams and calls as the tests need them, in the domain's words: a team exists for this service
 * once its {@code TeamCreated} reached the roster projection; members and the owner call the API
 * with internal tokens; events are read back from the outbox they were committed to.
 */
@TestComponent
public class BoardFixture {

  private final ObjectProvider<WebTestClient> web;
  private final CallerTokens tokens;
  private final Rosters rosters;
  private final EventCodec codec;
  private final KafkaTemplate<Object, Object> kafka;
  private final DatabaseClient db;

  public BoardFixture(
      ObjectProvider<WebTestClient> web,
      CallerTokens tokens,
      Rosters rosters,
      EventCodec codec,
      KafkaTemplate<Object, Object> kafka,
      DatabaseClient db) {
    this.web = web;
    this.tokens = tokens;
    this.rosters = rosters;
    this.codec = codec;
    this.kafka = kafka;
    this.db = db;
  }

  /** A team as the tests know it: its id, owner and member names (the first one leads). */
  public record Team(UUID id, String ownerId, List<String> members) {
    public String lead() {
      return members.get(0);
    }
  }

  /** A team whose first member is the lead, known to this service once the method returns. */
  public Team teamWithLeadAndMembers(String ownerId, String... members) {
    UUID teamId = UUID.randomUUID();
    List<RosterMember> roster = new ArrayList<>();
    for (int i = 0; i < members.length; i++) {
      roster.add(new RosterMember(members[i], "agent-" + i, i == 0, UUID.randomUUID().toString()));
    }
    TeamCreated created =
        new TeamCreated(
            teamId.toString(), ownerId, "Team " + teamId, "Ship it", "ready", roster, 1);
    EventEnvelope envelope = codec.envelope(created, teamId.toString(), ownerId, 1, null);
    try {
      kafka
          .send(Topics.TEAM_EVENTS, teamId.toString(), codec.write(envelope))
          .get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("could not publish TeamCreated", e);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> rosters.find(teamId).blockOptional().isPresent());
    return new Team(teamId, ownerId, List.of(members));
  }

  /** A client that acts as the named member of the team. */
  public WebTestClient as(Team team, String member) {
    return client(new Caller.Member(team.ownerId(), team.id(), member, null));
  }

  /** A client that acts as the team's owner (a person). */
  public WebTestClient asOwner(Team team) {
    return client(new Caller.Owner(team.ownerId()));
  }

  /** A client for any caller. */
  public WebTestClient client(Caller caller) {
    return web.getObject()
        .mutate()
        .responseTimeout(Duration.ofSeconds(30))
        .defaultHeader("Authorization", "Bearer " + tokens.issue(caller, Duration.ofHours(1)))
        .build();
  }

  public static String tasks(Team team) {
    return "/api/v1/teams/" + team.id() + "/tasks";
  }

  public static String task(Team team, long id) {
    return tasks(team) + "/" + id;
  }

  /**
   * One page of the board as the member reads it.
   *
   * @param query the listing's parameters, e.g. {@code include_deleted=true&limit=2}; may be empty
   */
  public TaskPageView page(Team team, String member, String query) {
    return as(team, member)
        .get()
        .uri(tasks(team) + (query.isEmpty() ? "" : "?" + query))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(TaskPageView.class)
        .returnResult()
        .getResponseBody();
  }

  /** The whole board (with this query) as the member reads it, following every page. */
  public List<TaskView> list(Team team, String member, String query) {
    List<TaskView> all = new ArrayList<>();
    String cursor = null;
    do {
      String next =
          cursor == null
              ? query
              : (query.isEmpty() ? "" : query + "&")
                  + "cursor="
                  + java.net.URLEncoder.encode(cursor, java.nio.charset.StandardCharsets.UTF_8);
      TaskPageView page = page(team, member, next);
      all.addAll(page.items());
      cursor = page.nextCursor();
    } while (cursor != null);
    return all;
  }

  /** Creates a task as the member and returns it. */
  public TaskView create(Team team, String member, String title, Long... dependencies) {
    return created(
        as(team, member)
            .post()
            .uri(tasks(team))
            .bodyValue(Map.of("title", title, "dependencies", List.of(dependencies)))
            .exchange());
  }

  /** The task from a 201 answer. */
  public static TaskView created(ResponseSpec response) {
    return response
        .expectStatus()
        .isCreated()
        .expectBody(OutcomeView.class)
        .returnResult()
        .getResponseBody()
        .task();
  }

  /** A POST of a transition with the expected revision and any other fields. */
  public ResponseSpec transition(
      Team team, String member, long id, String action, long expectedRevision, Object... fields) {
    return transition(as(team, member), team, id, action, expectedRevision, fields);
  }

  public static ResponseSpec transition(
      WebTestClient client,
      Team team,
      long id,
      String action,
      long expectedRevision,
      Object... fields) {
    Map<String, Object> body = new HashMap<>();
    body.put("expected_revision", expectedRevision);
    for (int i = 0; i + 1 < fields.length; i += 2) {
      body.put((String) fields[i], fields[i + 1]);
    }
    return client.post().uri(task(team, id) + "/" + action).bodyValue(body).exchange();
  }

  /** The task after a successful transition. */
  public TaskView done(ResponseSpec response) {
    return outcome(response).task();
  }

  public static OutcomeView outcome(ResponseSpec response) {
    return response
        .expectStatus()
        .isOk()
        .expectBody(OutcomeView.class)
        .returnResult()
        .getResponseBody();
  }

  /** The task as a member reads it. */
  public TaskView read(Team team, String member, long id) {
    return as(team, member)
        .get()
        .uri(task(team, id))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(TaskView.class)
        .returnResult()
        .getResponseBody();
  }

  /** A task claimed by the member, returned in progress. */
  public TaskView claimed(Team team, String member, TaskView task) {
    return done(transition(team, member, task.id(), "claim", task.revision()));
  }

  /** An event the service committed to its outbox for the team. */
  public record Event(String type, long sequence, EventEnvelope envelope) {
    public <T> T data(EventCodec codec, Class<T> type) {
      return codec.data(envelope, type);
    }
  }

  /** Every event committed for the team, in commit order. */
  public List<Event> events(Team team) {
    return db.sql("SELECT payload FROM platform.outbox WHERE message_key = :team ORDER BY id")
        .bind("team", team.id().toString())
        .map(row -> codec.read(row.get("payload", String.class)))
        .all()
        .map(envelope -> new Event(envelope.type(), envelope.sequence(), envelope))
        .collectList()
        .block(Duration.ofSeconds(10));
  }

  /** The events of one type, as their payloads. */
  public <T> List<T> events(Team team, String type, Class<T> payload) {
    return events(team).stream()
        .filter(e -> e.type().equals(type))
        .map(e -> e.data(codec, payload))
        .toList();
  }

  /** A scalar from the service's database. */
  public @Nullable Long count(String sql, Map<String, Object> bindings) {
    DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
    for (var binding : bindings.entrySet()) {
      spec = spec.bind(binding.getKey(), binding.getValue());
    }
    return spec.map(row -> row.get(0, Long.class)).one().block(Duration.ofSeconds(10));
  }
}
