package io.agentteams.devstack.fault;

import io.agentteams.contracts.Topics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One subscriber per team holds the team's event stream through the gateway, as the web UI does,
 * and reconnects with {@code Last-Event-ID} whenever the stream is cut. What the broker holds is
 * the truth the streams are checked against.
 */
final class TeamStreams {

  /** An event as a subscriber got it ({@code reset} for the stream's own reset event). */
  record Received(String team, String type, @Nullable String eventId, String cursor) {}

  /** An event as the broker holds it. */
  record Published(String team, String eventId, String type, int topic, long offset) {}

  private final Client client;
  private final List<Team> teams;
  private final History<Received> received = new History<>();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final Map<String, Stream<String>> open = new ConcurrentHashMap<>();

  TeamStreams(Client client, List<Team> teams) {
    this.client = client;
    this.teams = List.copyOf(teams);
  }

  History<Received> received() {
    return received;
  }

  void start() {
    for (Team team : teams) {
      Thread thread = new Thread(() -> follow(team), "stream-" + team.id());
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
  }

  private void follow(Team team) {
    String lastEventId = null;
    while (!stopping.get()) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(
                  URI.create(client.base() + "/api/v1/teams/" + team.id() + "/events"))
              .header("Authorization", "Bearer " + team.owner())
              .header("Accept", "text/event-stream")
              .GET();
      if (lastEventId != null) {
        request.header("Last-Event-ID", lastEventId);
      }
      long invoked = System.nanoTime();
      try {
        HttpResponse<Stream<String>> response =
            client.http().send(request.build(), HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() != 200) {
          response.body().close();
          received.record(
              "stream-" + team.id(),
              "connect",
              null,
              Outcome.INFO,
              invoked,
              System.nanoTime(),
              Integer.toString(response.statusCode()));
          Pause.backOff();
          continue;
        }
        open.put(team.id(), response.body());
        String id = null;
        String event = null;
        StringBuilder data = new StringBuilder();
        Iterator<String> lines = response.body().iterator();
        while (lines.hasNext() && !stopping.get()) {
          String line = lines.next();
          if (line.isEmpty()) {
            if (event != null && id != null) {
              String eventId = null;
              if (!event.equals("reset")) {
                eventId = Client.JSON.readTree(data.toString()).path("event_id").asString(null);
              }
              long at = System.nanoTime();
              received.record(
                  "stream-" + team.id(),
                  "event",
                  new Received(team.id(), event, eventId, id),
                  Outcome.OK,
                  at,
                  at,
                  "");
              lastEventId = id;
            }
            id = null;
            event = null;
            data.setLength(0);
          } else if (line.startsWith("id:")) {
            id = line.substring(3).trim();
          } else if (line.startsWith("event:")) {
            event = line.substring(6).trim();
          } else if (line.startsWith("data:")) {
            data.append(line.substring(5).trim());
          }
        }
      } catch (IOException | RuntimeException cut) {
        // The stream was cut: reconnect from the last event received.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } finally {
        open.remove(team.id());
      }
      if (!stopping.get()) {
        Pause.backOff();
      }
    }
  }

  /** Whether every subscriber has received every event the broker holds for its team. */
  boolean caughtUp(List<Published> published) {
    Set<String> got = ConcurrentHashMap.newKeySet();
    for (History.Op<Received> op : received.ops("event")) {
      if (op.value().eventId() != null) {
        got.add(op.value().eventId());
      }
    }
    return published.stream().allMatch(p -> got.contains(p.eventId()));
  }

  void stop() {
    stopping.set(true);
    open.values().forEach(Stream::close);
  }

  /** Every event of the teams the broker holds, read from the start of every event topic. */
  List<Published> published(String bootstrapServers) {
    Set<String> ids = ConcurrentHashMap.newKeySet();
    teams.forEach(team -> ids.add(team.id()));
    List<Published> all = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new StringDeserializer(),
            new StringDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : Topics.EVENT_TOPICS) {
        for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
          partitions.add(new TopicPartition(topic, info.partition()));
        }
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = new LinkedHashMap<>(consumer.endOffsets(partitions));
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          if (!ids.contains(record.key())) {
            continue;
          }
          JsonNode envelope = Client.JSON.readTree(record.value());
          all.add(
              new Published(
                  record.key(),
                  envelope.get("event_id").asString(),
                  envelope.get("type").asString(),
                  Topics.EVENT_TOPICS.indexOf(record.topic()),
                  record.offset()));
        }
      }
    }
    return all;
  }
}
