package io.agentteams.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.gateway.stream.FeedConsumer;
import io.agentteams.gateway.support.StubServices;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/** Team streams over HTTP: resumable with Last-Event-ID, kept alive with heartbeat comments. */
@RealInfrastructure
@SpringBootTest(
    classes = GatewayApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + GatewayApplication.CONFIG_NAME,
      "agentteams.gateway.identity.dev-identity-enabled=true",
      "agentteams.gateway.stream.heartbeat=300ms",
      "agentteams.gateway.stream.subscriber-buffer=4096",
      "agentteams.kafka.partitions=4",
      // Many tests share one address; the address budget has its own test.
      "agentteams.gateway.limits.anonymous-burst=100000"
    })
class StreamResumeIntegrationTest {

  static final StubServices services = new StubServices();

  @DynamicPropertySource
  static void endpoints(DynamicPropertyRegistry registry) {
    registry.add("agentteams.gateway.services.team", () -> services.url("team"));
  }

  @AfterAll
  static void stop() {
    services.close();
  }

  /** A numbered event of the burst. */
  record Numbered(int n) implements EventPayload {
    @Override
    public String eventType() {
      return "Numbered";
    }
  }

  @LocalServerPort int port;
  @Autowired FeedConsumer consumer;
  @Autowired EventCodec codec;

  private WebClient client() {
    return WebClient.create("http://127.0.0.1:" + port);
  }

  private String ownerToken() {
    return (String)
        client()
            .post()
            .uri("/dev/tokens")
            .bodyValue(Map.of("owner_id", StubServices.OWNER))
            .retrieve()
            .bodyToMono(Map.class)
            .block(Duration.ofSeconds(10))
            .get("access_token");
  }

  private Flux<ServerSentEvent<String>> stream(String token, String lastEventId) {
    return client()
        .get()
        .uri("/api/v1/teams/{team}/events", StubServices.TEAM)
        .header("Authorization", "Bearer " + token)
        .headers(
            h -> {
              if (lastEventId != null) {
                h.set("Last-Event-ID", lastEventId);
              }
            })
        .accept(MediaType.TEXT_EVENT_STREAM)
        .retrieve()
        .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {});
  }

  private int number(ServerSentEvent<String> event) {
    return codec.data(codec.read(event.data()), Numbered.class).n();
  }

  @Test
  void aSubscriberThatDropsDuringABurstResumesWithEveryMissedEventOnceInOrder() throws Exception {
    await().atMost(Duration.ofSeconds(30)).until(consumer::assigned);
    String token = ownerToken();
    List<ServerSentEvent<String>> first = new ArrayList<>();
    var firstConnection =
        stream(token, null)
            .filter(e -> "Numbered".equals(e.event()))
            .take(300)
            .doOnNext(first::add)
            .then()
            .toFuture();

    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.shared().kafkaBootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class))) {
      // Whether the first connection subscribes before, during or after the burst, it starts at
      // event 0: a new subscriber gets the retained window first, then live events.
      for (int n = 0; n < 1000; n++) {
        producer.send(
            new ProducerRecord<>(
                Topics.TEAM_EVENTS,
                StubServices.TEAM.toString(),
                codec.write(
                    codec.envelope(
                        new Numbered(n),
                        StubServices.TEAM.toString(),
                        StubServices.OWNER,
                        n,
                        null))));
      }
      producer.flush();
    }
    firstConnection.get();
    assertThat(first).extracting(this::number).first().isEqualTo(0);
    assertThat(first).hasSize(300);
    String lastSeen = first.get(first.size() - 1).id();

    List<Integer> resumed =
        stream(token, lastSeen)
            .filter(e -> "Numbered".equals(e.event()))
            .take(700)
            .map(this::number)
            .collectList()
            .block(Duration.ofSeconds(60));
    List<Integer> expected = new ArrayList<>();
    for (int n = 300; n < 1000; n++) {
      expected.add(n);
    }
    assertThat(resumed).isEqualTo(expected);
  }

  @Test
  void idleStreamsReceiveHeartbeatComments() {
    String token = ownerToken();
    List<ServerSentEvent<String>> comments =
        stream(token, null)
            .filter(e -> e.comment() != null)
            .take(3)
            .collectList()
            .block(Duration.ofSeconds(10));
    assertThat(comments)
        .extracting(ServerSentEvent::comment)
        .containsExactly("stream open", "keep-alive", "keep-alive");
  }
}
