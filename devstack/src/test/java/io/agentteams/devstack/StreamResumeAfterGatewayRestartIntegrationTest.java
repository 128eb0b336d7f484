package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Sdk;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.streams.EventSubscription;
import io.agentteams.sdk.streams.ServerSentEvent;
import io.agentteams.sdk.tasks.NewTask;
import io.agentteams.sdk.teams.NewTeam;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.tools.MemberTools;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A restarted gateway's team windows begin where it started reading; a subscriber that resumes
 * there with a {@code Last-Event-ID} from before the restart still gets exactly what it missed
 * (read back from the broker), with no reset and nothing it already had.
 */
@RealInfrastructure
class StreamResumeAfterGatewayRestartIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void aSubscriberResumingAtARestartedGatewayGetsExactlyTheEventsItMissed() {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("rex"));
    Sdk.agents(owner, List.of("resumer"));
    Team team =
        Sdk.readyTeam(
            owner,
            new NewTeam(
                "Resumers",
                "Resume a stream across a gateway restart",
                List.of(
                    NewTeam.NewMember.of("m1", "resumer"), NewTeam.NewMember.of("m2", "resumer"))));
    UUID teamId = team.id();
    // The stream is the owner's; the tasks that make its events are a member's.
    MemberTools m1 =
        owner.memberTools(
            teamId, TokenSupplier.of(owner.tokens().member(teamId, "m1").accessToken()));

    List<ServerSentEvent> before = new CopyOnWriteArrayList<>();
    EventSubscription first = owner.streams().team(teamId, null, before::add);
    m1.createTask(NewTask.titled("before 1"));
    await().atMost(Sdk.PATIENCE).until(() -> titles(before).contains("before 1"));
    first.close();
    String cursor = first.lastEventId();
    assertThat(cursor).isNotNull();
    Set<String> had = ids(before);

    // Missed while away: some before the gateway restarts, some after.
    m1.createTask(NewTask.titled("away 1"));
    m1.createTask(NewTask.titled("away 2"));
    ServiceStack stack = SharedStack.get();
    stack.stop(Service.GATEWAY);
    stack.startAgain(Service.GATEWAY);
    await().atMost(Sdk.PATIENCE).until(() -> created(m1, "after 1"));

    List<ServerSentEvent> resumed = new CopyOnWriteArrayList<>();
    try (EventSubscription again = owner.streams().team(teamId, cursor, resumed::add)) {
      await()
          .atMost(Sdk.PATIENCE)
          .until(() -> titles(resumed).containsAll(List.of("away 1", "away 2", "after 1")));
      m1.createTask(NewTask.titled("live 1"));
      await().atMost(Sdk.PATIENCE).until(() -> titles(resumed).contains("live 1"));
      await()
          .atMost(Sdk.PATIENCE)
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                Set<String> missed = new HashSet<>(published(teamId));
                missed.removeAll(had);
                assertThat(ids(resumed)).isEqualTo(missed);
              });
    }

    assertThat(resumed).extracting(ServerSentEvent::event).doesNotContain("reset");
    List<String> resumedIds = new ArrayList<>();
    resumed.forEach(e -> resumedIds.add(eventId(e)));
    assertThat(resumedIds).doesNotHaveDuplicates().doesNotContainAnyElementsOf(had);
    assertThat(titles(resumed)).containsSubsequence("away 1", "away 2", "after 1", "live 1");
  }

  /** Creates a task through the restarted gateway once it answers; whether it did. */
  private static boolean created(MemberTools member, String title) {
    try {
      member.createTask(NewTask.titled(title));
      return true;
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  private static Set<String> ids(List<ServerSentEvent> events) {
    Set<String> ids = new HashSet<>();
    events.forEach(e -> ids.add(eventId(e)));
    ids.remove(null);
    return ids;
  }

  private static String eventId(ServerSentEvent event) {
    JsonNode data = JSON.readTree(event.data());
    return data.path("event_id").isString() ? data.get("event_id").asString() : null;
  }

  /** The titles of the tasks created, in the order the stream carried them. */
  private static List<String> titles(List<ServerSentEvent> events) {
    List<String> titles = new ArrayList<>();
    for (ServerSentEvent event : events) {
      if ("TaskCreated".equals(event.event())) {
        JsonNode data = JSON.readTree(event.data()).path("data");
        titles.add(data.path("task").path("title").asString(data.path("title").asString("")));
      }
    }
    return titles;
  }

  /** The ids of every event of the team the broker holds, read from its partitions' start. */
  private static List<String> published(UUID teamId) {
    String key = teamId.toString();
    int partition =
        Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8)))
            % SharedStack.PARTITIONS;
    List<TopicPartition> partitions = new ArrayList<>();
    Topics.EVENT_TOPICS.forEach(topic -> partitions.add(new TopicPartition(topic, partition)));
    List<String> ids = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.shared().kafkaBootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          if (key.equals(record.key())) {
            ids.add(JSON.readTree(record.value()).get("event_id").asString());
          }
        }
      }
    }
    return ids;
  }
}
