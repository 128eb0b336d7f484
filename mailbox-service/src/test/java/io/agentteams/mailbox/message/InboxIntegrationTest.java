package io.agentteams.mailbox.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.mailbox.MailboxServiceTest;
import io.agentteams.mailbox.message.messaging.DeliverySubscription;
import io.agentteams.mailbox.support.DeliveryProbe;
import io.agentteams.mailbox.support.MailboxApi;
import io.agentteams.mailbox.support.TeamFixture;
import io.agentteams.platform.consumer.EventListeners;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@MailboxServiceTest
class InboxIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired JsonMapper json;
  @Autowired KafkaTemplate<Object, Object> kafka;
  @Autowired EventCodec codec;
  @Autowired Rosters rosters;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired EventListeners listeners;

  private TeamFixture teams;
  private MailboxApi api;
  private DeliveryProbe probe;

  @BeforeEach
  void setUp() {
    teams = new TeamFixture(kafka, codec, rosters, tokens);
    api = new MailboxApi(web, json);
    probe = new DeliveryProbe(db);
  }

  @Test
  void unreadReturnsEachMessageOnceUnderConcurrentReadersOfTheSameMember() throws Exception {
    var team = teams.team("owner-concurrent-readers", "lead", "reader", "other");
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      JsonNode message =
          i % 3 == 0
              ? api.broadcast(team.id(), teams.member(team, "other"), "broadcast " + i)
              : api.direct(team.id(), teams.member(team, "lead"), "reader", "direct " + i);
      sent.add(message.get("message_id").asString());
    }
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> probe.queued(team.id()) == 0 && probe.delivered(team.id()) == 80);

    String reader = teams.member(team, "reader");
    Callable<List<JsonNode>> readUntilEmpty =
        () -> {
          List<JsonNode> mine = new ArrayList<>();
          while (true) {
            MailboxApi.Response page = api.inbox(team.id(), reader, null, 7);
            assertThat(page.status()).isEqualTo(200);
            if (page.body().get("messages").isEmpty()) {
              return mine;
            }
            page.body().get("messages").forEach(mine::add);
          }
        };
    ExecutorService readers = Executors.newFixedThreadPool(6);
    List<Future<List<JsonNode>>> results = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      results.add(readers.submit(readUntilEmpty));
    }
    List<String> read = new ArrayList<>();
    for (Future<List<JsonNode>> result : results) {
      List<JsonNode> mine = result.get(60, TimeUnit.SECONDS);
      assertThat(mine.stream().map(m -> m.get("sequence").asLong()).toList()).isSorted();
      mine.forEach(m -> read.add(m.get("message_id").asString()));
    }
    readers.shutdown();

    assertThat(new HashSet<>(read)).hasSize(read.size());
    assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(api.inbox(team.id(), reader, null, null).body().get("messages")).isEmpty();
  }

  @Test
  void aReadWhoseAnswerNeverArrivedLosesNothingItsMessagesComeBackOnceTheLeaseRunsOut() {
    var team = teams.team("owner-lost-answer", "lead", "reader");
    String lead = teams.member(team, "lead");
    for (int i = 0; i < 3; i++) {
      api.direct(team.id(), lead, "reader", "lost " + i);
    }
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 3);
    String reader = teams.member(team, "reader");

    // The read commits, and its answer is lost (the replica dies, the connection is cut); the
    // client retries the very same request, then the reader carries on with nothing to acknowledge.
    JsonNode lost = api.read(team.id(), reader, "none", null).body();
    JsonNode retried = api.read(team.id(), reader, "none", null).body();
    JsonNode meanwhile = api.read(team.id(), reader, "none", null).body();
    assertThat(texts(lost)).containsExactly("lost 0", "lost 1", "lost 2");
    assertThat(texts(retried)).isEmpty();
    assertThat(retried.get("leased").asLong()).isEqualTo(3);
    assertThat(texts(meanwhile)).isEmpty();
    assertThat(readStatuses(team.id(), "reader")).containsOnly("delivered");

    runOutLeases(team.id(), "reader");
    JsonNode again = api.read(team.id(), reader, "none", null).body();
    assertThat(texts(again)).containsExactly("lost 0", "lost 1", "lost 2");
    assertThat(again.get("lease_id").asString()).isNotEqualTo(lost.get("lease_id").asString());

    JsonNode acknowledged =
        api.read(team.id(), reader, again.get("lease_id").asString(), null).body();
    assertThat(texts(acknowledged)).isEmpty();
    assertThat(acknowledged.get("read_cursor").asLong()).isEqualTo(3);
    assertThat(acknowledged.get("leased").asLong()).isZero();
    assertThat(readStatuses(team.id(), "reader")).containsOnly("read");
  }

  @Test
  void anAcknowledgedReadIsNeverReturnedAgainAndALeaseKeepsItsMessagesFromOtherReads() {
    var team = teams.team("owner-acknowledged", "lead", "reader");
    String lead = teams.member(team, "lead");
    for (int i = 0; i < 4; i++) {
      api.direct(team.id(), lead, "reader", "m" + i);
    }
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 4);
    String reader = teams.member(team, "reader");

    JsonNode first = api.read(team.id(), reader, "none", 2).body();
    JsonNode second = api.read(team.id(), reader, "none", null).body();
    assertThat(texts(first)).containsExactly("m0", "m1");
    assertThat(first.get("has_more").asBoolean()).isTrue();
    assertThat(texts(second)).containsExactly("m2", "m3");
    assertThat(second.get("leased").asLong()).isEqualTo(4);

    MailboxApi.Response ack =
        api.acknowledge(team.id(), reader, Map.of("lease_id", first.get("lease_id").asString()));
    assertThat(ack.status()).isEqualTo(200);
    assertThat(ack.body().get("read_cursor").asLong()).isEqualTo(2);
    assertThat(ack.body().get("acknowledged").asInt()).isEqualTo(2);

    runOutLeases(team.id(), "reader");
    JsonNode redelivered = api.read(team.id(), reader, "none", null).body();
    assertThat(texts(redelivered)).containsExactly("m2", "m3");
    JsonNode done =
        api.read(team.id(), reader, redelivered.get("lease_id").asString(), null).body();
    assertThat(texts(done)).isEmpty();
    assertThat(done.get("read_cursor").asLong()).isEqualTo(4);
  }

  @Test
  void readersThatAcknowledgeEachReadNeverShareAMessageAndLeaveEveryOneRead() throws Exception {
    var team = teams.team("owner-acking-readers", "lead", "reader", "other");
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      JsonNode message =
          i % 3 == 0
              ? api.broadcast(team.id(), teams.member(team, "other"), "broadcast " + i)
              : api.direct(team.id(), teams.member(team, "lead"), "reader", "direct " + i);
      sent.add(message.get("message_id").asString());
    }
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> probe.queued(team.id()) == 0 && probe.delivered(team.id()) == 80);

    String reader = teams.member(team, "reader");
    Callable<List<JsonNode>> readUntilEmpty =
        () -> {
          List<JsonNode> mine = new ArrayList<>();
          String ack = "none";
          while (true) {
            MailboxApi.Response page = api.read(team.id(), reader, ack, 7);
            assertThat(page.status()).isEqualTo(200);
            if (page.body().get("messages").isEmpty()) {
              return mine;
            }
            page.body().get("messages").forEach(mine::add);
            ack = page.body().get("lease_id").asString();
          }
        };
    ExecutorService readers = Executors.newFixedThreadPool(6);
    List<Future<List<JsonNode>>> results = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      results.add(readers.submit(readUntilEmpty));
    }
    List<String> read = new ArrayList<>();
    for (Future<List<JsonNode>> result : results) {
      List<JsonNode> mine = result.get(60, TimeUnit.SECONDS);
      assertThat(mine.stream().map(m -> m.get("sequence").asLong()).toList()).isSorted();
      mine.forEach(m -> read.add(m.get("message_id").asString()));
    }
    readers.shutdown();

    assertThat(new HashSet<>(read)).hasSize(read.size());
    assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(readStatuses(team.id(), "reader")).containsOnly("read");
  }

  @Test
  void aMemberReadsDirectMessagesAndBroadcastsOldestFirstOnceAndMayReReadAfterACursor() {
    var team = teams.team("owner-unread", "lead", "reader", "other");
    api.direct(team.id(), teams.member(team, "lead"), "reader", "first");
    api.broadcast(team.id(), teams.member(team, "other"), "second");
    api.direct(team.id(), teams.member(team, "other"), "lead", "not for the reader");
    api.broadcast(team.id(), teams.owner("owner-unread"), "third");
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.queued(team.id()) == 0);
    String reader = teams.member(team, "reader");

    JsonNode firstRead = api.inbox(team.id(), reader, null, 2).body();
    JsonNode secondRead = api.inbox(team.id(), reader, null, null).body();
    JsonNode nothingNew = api.inbox(team.id(), reader, null, null).body();
    JsonNode reRead = api.inbox(team.id(), reader, 1L, null).body();

    assertThat(texts(firstRead)).containsExactly("first", "second");
    assertThat(firstRead.get("has_more").asBoolean()).isTrue();
    assertThat(firstRead.get("read_cursor").asLong()).isEqualTo(2);
    assertThat(firstRead.get("messages").get(1).get("kind").asString()).isEqualTo("broadcast");
    assertThat(firstRead.get("messages").get(1).get("sender").asString()).isEqualTo("other");
    assertThat(texts(secondRead)).containsExactly("third");
    assertThat(secondRead.get("messages").get(0).get("sender_kind").asString()).isEqualTo("owner");
    assertThat(secondRead.get("has_more").asBoolean()).isFalse();
    assertThat(texts(nothingNew)).isEmpty();
    assertThat(nothingNew.get("read_cursor").asLong()).isEqualTo(3);
    assertThat(texts(reRead)).containsExactly("second", "third");
    assertThat(reRead.get("read_cursor").asLong()).isEqualTo(3);
    assertThat(readStatuses(team.id(), "reader")).containsOnly("read");
  }

  @Test
  void aMessageIsInTheInboxOnlyOnceItIsDelivered() {
    var team = teams.team("owner-not-yet", "lead", "reader");
    var consumer = listeners.container(DeliverySubscription.NAME);
    String reader = teams.member(team, "reader");
    consumer.stop();
    try {
      api.direct(team.id(), teams.member(team, "lead"), "reader", "in flight");
      assertThat(texts(api.inbox(team.id(), reader, null, null).body())).isEmpty();
    } finally {
      consumer.start();
    }
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 1);

    assertThat(texts(api.inbox(team.id(), reader, null, null).body())).containsExactly("in flight");
  }

  @Test
  void anInvalidLimitOrCursorIsRejected() {
    var team = teams.team("owner-invalid-inbox", "lead", "reader");
    String reader = teams.member(team, "reader");

    assertThat(api.inbox(team.id(), reader, null, 0).status()).isEqualTo(400);
    assertThat(api.inbox(team.id(), reader, null, 21).body().get("code").asString())
        .isEqualTo("invalid-limit");
    assertThat(api.inbox(team.id(), reader, -1L, null).body().get("code").asString())
        .isEqualTo("invalid-after");
    assertThat(api.read(team.id(), reader, "yesterday", null).body().get("code").asString())
        .isEqualTo("invalid-ack");
    assertThat(api.acknowledge(team.id(), reader, Map.of("lease_id", "none")).status())
        .isEqualTo(400);
  }

  @Test
  void aMemberOfAnotherTeamGetsTheSameNotFoundWhateverItsReadOrAcknowledgementSays() {
    var team = teams.team("owner-inbox-intruded", "lead", "reader");
    var other = teams.team("owner-inbox-intruded", "lead", "reader");
    String intruder = teams.member(other, "reader");
    java.util.UUID ghost = java.util.UUID.randomUUID();

    List<MailboxApi.Response> refusals = new ArrayList<>();
    for (java.util.UUID target : List.of(team.id(), ghost)) {
      refusals.add(api.inbox(target, intruder, null, 0));
      refusals.add(api.inbox(target, intruder, -1L, null));
      refusals.add(api.read(target, intruder, "yesterday", null));
      refusals.add(api.acknowledge(target, intruder, Map.of("lease_id", "none")));
      refusals.add(api.acknowledge(target, intruder, Map.of("lease_id", "not-a-lease")));
      refusals.add(api.acknowledge(target, intruder, Map.of()));
      refusals.add(rawAcknowledge(target, intruder, "{not json"));
      refusals.add(rawAcknowledge(target, intruder, "{\"lease_id\": 12}"));
    }
    assertThat(refusals)
        .allSatisfy(
            refusal -> {
              assertThat(refusal.status()).as(new String(refusal.bytes())).isEqualTo(404);
              assertThat(refusal.body().get("code").asString()).isEqualTo("team-not-found");
            });
  }

  private MailboxApi.Response rawAcknowledge(java.util.UUID team, String auth, String body) {
    var result =
        web.post()
            .uri("/api/v1/teams/{team}/inbox/ack", team)
            .header("Authorization", auth)
            .header("Content-Type", "application/json")
            .bodyValue(body)
            .exchange()
            .expectBody()
            .returnResult();
    byte[] bytes = result.getResponseBody() == null ? new byte[0] : result.getResponseBody();
    return new MailboxApi.Response(result.getStatus().value(), bytes, json.readTree(bytes));
  }

  /** Lets the member's running leases run out, as their time-out passing would. */
  private void runOutLeases(java.util.UUID team, String recipient) {
    db.sql(
            "UPDATE delivery SET leased_until = now() - interval '1 second'"
                + " WHERE team_id = :team AND recipient = :r AND lease_id IS NOT NULL")
        .bind("team", team)
        .bind("r", recipient)
        .fetch()
        .rowsUpdated()
        .block();
  }

  private static List<String> texts(JsonNode page) {
    List<String> texts = new ArrayList<>();
    page.get("messages").forEach(m -> texts.add(m.get("text").asString()));
    return texts;
  }

  private List<String> readStatuses(java.util.UUID team, String recipient) {
    return db.sql("SELECT status FROM delivery WHERE team_id = :team AND recipient = :r")
        .bind("team", team)
        .bind("r", recipient)
        .map(row -> row.get("status", String.class))
        .all()
        .collectList()
        .block();
  }
}
