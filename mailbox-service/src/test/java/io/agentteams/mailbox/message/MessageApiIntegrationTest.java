package io.agentteams.mailbox.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageDelivered;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.contracts.mailbox.MessageRead;
import io.agentteams.mailbox.MailboxServiceTest;
import io.agentteams.mailbox.support.DeliveryProbe;
import io.agentteams.mailbox.support.EventTap;
import io.agentteams.mailbox.support.MailboxApi;
import io.agentteams.mailbox.support.TeamFixture;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
class MessageApiIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired JsonMapper json;
  @Autowired KafkaTemplate<Object, Object> kafka;
  @Autowired EventCodec codec;
  @Autowired Rosters rosters;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;

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
  void aDirectMessageIsQueuedForItsRecipientWithTheSenderTakenFromTheCaller() {
    var team = teams.team("alice", "lead", "researcher", "writer");
    UUID job = UUID.randomUUID();

    MailboxApi.Response response =
        api.send(
            team.id(),
            teams.member(team, "lead", job),
            Map.of("to", "writer", "text", "Draft the intro", "sender", "researcher"));

    assertThat(response.status()).isEqualTo(201);
    JsonNode sent = response.body();
    assertThat(sent.get("sender").asString()).isEqualTo("lead");
    assertThat(sent.get("sender_kind").asString()).isEqualTo("member");
    assertThat(sent.get("kind").asString()).isEqualTo("direct");
    assertThat(sent.get("job_id").asString()).isEqualTo(job.toString());
    assertThat(sent.get("conversation_id").asString()).isEqualTo("conv-lead-" + team.id());
    assertThat(sent.get("sequence").asLong()).isEqualTo(1);
    assertThat(sent.get("recipients")).hasSize(1);
    assertThat(sent.get("recipients").get(0).get("member").asString()).isEqualTo("writer");
    assertThat(sent.get("recipients").get(0).get("status").asString()).isEqualTo("queued");
  }

  @Test
  void aBroadcastReachesEveryOtherMemberAndTheOwnersReachesAll() {
    var team = teams.team("alice", "lead", "researcher", "writer");

    JsonNode fromMember = api.broadcast(team.id(), teams.member(team, "researcher"), "Found it");
    JsonNode fromOwner = api.broadcast(team.id(), teams.owner("alice"), "Please wrap up");

    assertThat(fromMember.get("recipients").findValuesAsString("member"))
        .containsExactly("lead", "writer");
    assertThat(fromOwner.get("recipients").findValuesAsString("member"))
        .containsExactly("lead", "researcher", "writer");
    assertThat(fromOwner.get("sender_kind").asString()).isEqualTo("owner");
    assertThat(fromOwner.get("sequence").asLong()).isEqualTo(2);
  }

  @Test
  void anUnknownRecipientIsAnErrorAndNoInboxAppears() {
    var team = teams.team("alice", "lead", "researcher");

    MailboxApi.Response response =
        api.send(team.id(), teams.member(team, "lead"), Map.of("to", "ghost", "text", "Hello?"));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body().get("code").asString()).isEqualTo("unknown-recipient");
    assertThat(probe.queued(team.id()) + probe.delivered(team.id())).isZero();
    MailboxApi.Response ghostInbox = api.inbox(team.id(), teams.member(team, "ghost"), null, null);
    assertThat(ghostInbox.status()).isEqualTo(403);
    assertThat(ghostInbox.body().get("code").asString()).isEqualTo("not-a-member");
  }

  @Test
  void aTeamThisServiceHasNotLearnedOfIsNotFound() {
    MailboxApi.Response response =
        api.send(UUID.randomUUID(), teams.owner("alice"), Map.of("broadcast", true, "text", "Hi"));

    assertThat(response.status()).isEqualTo(404);
    assertThat(response.body().get("code").asString()).isEqualTo("team-not-found");
  }

  @Test
  void anotherOwnersTeamAndAnotherTeamsMemberTokenAreBothNotFound() {
    var team = teams.team("alice", "lead", "researcher");
    var other = teams.team("bob", "lead", "researcher");

    assertThat(
            api.send(team.id(), teams.owner("bob"), Map.of("broadcast", true, "text", "Hi"))
                .status())
        .isEqualTo(404);
    assertThat(api.history(team.id(), teams.owner("bob"), Map.of()).status()).isEqualTo(404);

    MailboxApi.Response crossTeam =
        api.send(team.id(), teams.member(other, "lead"), Map.of("to", "researcher", "text", "Hi"));
    // Another team's member token learns no more than another owner: not found.
    assertThat(crossTeam.status()).isEqualTo(404);
    assertThat(crossTeam.body().get("code").asString()).isEqualTo("team-not-found");
    assertThat(api.inbox(team.id(), teams.member(other, "lead"), null, null).status())
        .isEqualTo(404);
    assertThat(api.history(team.id(), teams.member(other, "lead"), Map.of()).status())
        .isEqualTo(404);
    assertThat(probe.queued(team.id()) + probe.delivered(team.id())).isZero();
  }

  @Test
  void aWorkerCannotSendAndOnlyMembersHaveAnInbox() {
    var team = teams.team("alice", "lead", "researcher");

    assertThat(
            api.send(team.id(), teams.worker("alice"), Map.of("broadcast", true, "text", "Hi"))
                .status())
        .isEqualTo(403);
    MailboxApi.Response ownerInbox = api.inbox(team.id(), teams.owner("alice"), null, null);
    assertThat(ownerInbox.status()).isEqualTo(403);
    assertThat(ownerInbox.body().get("code").asString()).isEqualTo("wrong-caller-kind");
  }

  @Test
  void aRetryWithTheSameClientMessageIdReturnsTheSameMessageAndADifferentOneConflicts() {
    var team = teams.team("alice", "lead", "researcher");
    String lead = teams.member(team, "lead");
    Map<String, Object> body =
        Map.of("to", "researcher", "text", "Check the numbers", "client_message_id", "req-1");

    MailboxApi.Response first = api.send(team.id(), lead, body);
    MailboxApi.Response retry = api.send(team.id(), lead, body);
    Map<String, Object> changed = new HashMap<>(body);
    changed.put("text", "Something else");
    MailboxApi.Response conflicting = api.send(team.id(), lead, changed);

    assertThat(first.status()).isEqualTo(201);
    assertThat(retry.status()).isEqualTo(200);
    assertThat(retry.body().get("replayed").asBoolean()).isTrue();
    assertThat(retry.body().get("message_id")).isEqualTo(first.body().get("message_id"));
    assertThat(conflicting.status()).isEqualTo(409);
    assertThat(conflicting.body().get("code").asString()).isEqualTo("client-message-id-reused");
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 1);
    assertThat(probe.queued(team.id())).isZero();
  }

  @Test
  void anOverlongMessageIsRejectedNamingTheLimitAndNothingIsWritten() {
    var team = teams.team("alice", "lead", "researcher");

    MailboxApi.Response tooManyChars =
        api.send(
            team.id(),
            teams.member(team, "lead"),
            Map.of("to", "researcher", "text", "x".repeat(4001)));
    MailboxApi.Response tooManyBytes =
        api.send(
            team.id(),
            teams.member(team, "lead"),
            Map.of("to", "researcher", "text", "\uD83D\uDE00".repeat(2001)));

    assertThat(tooManyChars.status()).isEqualTo(422);
    assertThat(tooManyChars.body().get("limit").asString()).isEqualTo("mailbox.message.max-chars");
    assertThat(tooManyBytes.status()).isEqualTo(422);
    assertThat(tooManyBytes.body().get("limit").asString()).isEqualTo("mailbox.message.max-bytes");
    MailboxApi.Response nul =
        api.send(
            team.id(), teams.member(team, "lead"), Map.of("to", "researcher", "text", "a\u0000b"));
    assertThat(nul.status()).isEqualTo(400);
    assertThat(nul.body().get("code").asString()).isEqualTo("nul-character");
    assertThat(probe.queued(team.id()) + probe.delivered(team.id())).isZero();
    assertThat(api.history(team.id(), teams.owner("alice"), Map.of()).body().get("records"))
        .isEmpty();
  }

  @Test
  void aServiceSendsSystemMessagesAndOthersCannot() {
    var team = teams.team("alice", "lead", "researcher");

    MailboxApi.Response system =
        api.send(
            team.id(),
            teams.service("scheduler-service"),
            Map.of(
                "to", "researcher",
                "text", "Task 4 is yours",
                "system_kind", "task.assigned",
                "job_id", "job-77"));
    MailboxApi.Response fromMember =
        api.send(
            team.id(),
            teams.member(team, "lead"),
            Map.of("to", "researcher", "text", "Fake", "system_kind", "task.assigned"));

    assertThat(system.status()).isEqualTo(201);
    assertThat(system.body().get("sender").asString()).isEqualTo("system");
    assertThat(system.body().get("system_kind").asString()).isEqualTo("task.assigned");
    assertThat(system.body().get("job_id").asString()).isEqualTo("job-77");
    assertThat(fromMember.status()).isEqualTo(400);
    assertThat(fromMember.body().get("code").asString()).isEqualTo("system-kind-not-allowed");
  }

  @Test
  void queuedDeliveredAndAcknowledgedReadAreAnnouncedOnTheMailboxTopicKeyedByTeam() {
    var team = teams.team("alice", "lead", "researcher");
    JsonNode sent = api.direct(team.id(), teams.member(team, "lead"), "researcher", "Ping");
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.delivered(team.id()) == 1);
    // A read leases the message; it is read (and announced) once the reader acknowledges it.
    String researcher = teams.member(team, "researcher");
    MailboxApi.Response leased = api.read(team.id(), researcher, "none", null);
    assertThat(leased.status()).isEqualTo(200);
    assertThat(
            api.acknowledge(
                    team.id(),
                    researcher,
                    java.util.Map.of("lease_id", leased.body().get("lease_id").asString()))
                .status())
        .isEqualTo(200);

    List<EventEnvelope> events =
        new EventTap(TestInfrastructure.shared().kafkaBootstrapServers(), codec)
            .read(
                Topics.MAILBOX_EVENTS,
                team.id(),
                seen -> seen.stream().anyMatch(e -> e.type().equals(MessageRead.TYPE)),
                Duration.ofSeconds(30));

    assertThat(events)
        .extracting(EventEnvelope::type)
        .containsExactly(MessageQueued.TYPE, MessageDelivered.TYPE, MessageRead.TYPE);
    MessageQueued queued = codec.data(events.get(0), MessageQueued.class);
    assertThat(queued.messageId()).isEqualTo(sent.get("message_id").asString());
    assertThat(queued.recipients()).containsExactly(new MessageQueued.Recipient("researcher", 1));
    MessageDelivered delivered = codec.data(events.get(1), MessageDelivered.class);
    assertThat(delivered.recipient()).isEqualTo("researcher");
    assertThat(delivered.copies())
        .extracting(MessageDelivered.Copy::messageId)
        .containsExactly(queued.messageId());
    assertThat(delivered.deliveredUpTo()).isEqualTo(1);
    assertThat(events.get(1).sequence()).isEqualTo(1);
    MessageRead read = codec.data(events.get(2), MessageRead.class);
    assertThat(read.messageIds()).containsExactly(queued.messageId());
    assertThat(events).allMatch(e -> e.ownerId().equals("alice"));
  }
}
