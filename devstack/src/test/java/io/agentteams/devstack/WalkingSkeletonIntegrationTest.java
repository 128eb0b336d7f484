package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * The whole path through the real pipeline: the gateway routes a team creation to team-service,
 * which commits the team and its outbox row together; the relay publishes TeamCreated; mailbox,
 * task-board and scheduler record the roster through their idempotent consumers; the gateway's SSE
 * stream delivers the event. A redelivered event changes no projection.
 */
@RealInfrastructure
class WalkingSkeletonIntegrationTest {

  private static final List<Service> PROJECTING =
      List.of(Service.MAILBOX, Service.TASK_BOARD, Service.SCHEDULER);

  private static ServiceStack stack;
  private static TestInfrastructure infrastructure;
  private static WebClient gateway;

  @BeforeAll
  static void startStack(TestInfrastructure shared) {
    infrastructure = shared;
    stack = SharedStack.get();
    gateway = WebClient.create(stack.url(Service.GATEWAY));
  }

  @Test
  void aTeamCreatedAtTheGatewayReachesEveryProjectionAndTheTeamStreamExactlyOnce() {
    String token = ownerToken("alice");
    UUID teamId = createTeam(token);

    // The gateway's stream delivers TeamCreated.
    Sinks.Many<ServerSentEvent<String>> received = Sinks.many().replay().all();
    var subscription = stream(teamId, token).subscribe(received::tryEmitNext);
    try {
      ServerSentEvent<String> first =
          received.asFlux().filter(e -> e.event() != null).blockFirst(Duration.ofSeconds(30));
      assertThat(first.event()).isEqualTo("TeamCreated");
      assertThat(first.id()).matches("-?\\d+(\\.-?\\d+){3}");
      assertThat(first.data()).contains(teamId.toString(), "\"producer\":\"team-service\"");

      // Every projecting service recorded the roster.
      Map<Service, OffsetDateTime> projectedAt = new EnumMap<>(Service.class);
      for (Service service : PROJECTING) {
        Roster roster =
            await()
                .atMost(Duration.ofSeconds(30))
                .until(
                    () -> rosters(service).find(teamId).block(),
                    r -> r != null && r.status().wire().equals("ready"));
        assertThat(roster.ownerId()).isEqualTo("alice");
        assertThat(roster.members())
            .extracting(Roster.Member::name)
            .containsExactlyInAnyOrder("lead-writer", "researcher");
        assertThat(roster.lead()).map(Roster.Member::name).contains("lead-writer");
        projectedAt.put(service, rosterUpdatedAt(service, teamId));
      }

      // Redeliver TeamCreated byte for byte, then a marker behind it on the same partition.
      // Other tests share this stack, so duplicates are counted from here on.
      Map<Service, Double> duplicatesBefore = new EnumMap<>(Service.class);
      PROJECTING.forEach(service -> duplicatesBefore.put(service, duplicates(service)));
      ConsumerRecord<String, String> original = publishedTeamEvent(teamId);
      EventCodec codec = stack.context(Service.TEAM).getBean(EventCodec.class);
      EventEnvelope created = codec.read(original.value());
      EventEnvelope markerEvent =
          new EventEnvelope(
              UUID.randomUUID(),
              "RedeliveryMarker",
              1,
              created.teamId(),
              created.ownerId(),
              created.occurredAt(),
              "test",
              created.sequence(),
              null,
              created.data());
      String markerId = markerEvent.eventId().toString();
      String marker = codec.write(markerEvent);
      try (KafkaProducer<String, String> producer = producer()) {
        producer.send(new ProducerRecord<>(Topics.TEAM_EVENTS, original.key(), original.value()));
        producer.send(new ProducerRecord<>(Topics.TEAM_EVENTS, original.key(), marker));
        producer.flush();
      }
      for (Service service : PROJECTING) {
        // The marker sits behind the redelivered copy on the same partition: once it is applied
        // and the copy was counted as a duplicate, the copy has been seen and skipped.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    processed(service, markerId) == 1
                        && duplicates(service) == duplicatesBefore.get(service) + 1);
        assertThat(rosterUpdatedAt(service, teamId))
            .as("%s projection untouched", service.id())
            .isEqualTo(projectedAt.get(service));
        assertThat(rosters(service).find(teamId).block().members()).hasSize(2);
        assertThat(processed(service, eventId(original))).isEqualTo(1);
      }

      // The stream showed TeamCreated once, and the marker after it.
      List<ServerSentEvent<String>> events =
          received
              .asFlux()
              .filter(e -> "TeamCreated".equals(e.event()) || "RedeliveryMarker".equals(e.event()))
              .take(2)
              .collectList()
              .block(Duration.ofSeconds(30));
      assertThat(events)
          .extracting(ServerSentEvent::event)
          .containsExactly("TeamCreated", "RedeliveryMarker");
    } finally {
      subscription.dispose();
    }
  }

  @Test
  void anotherOwnerCannotOpenTheTeamStreamAndAnonymousCallersAreRefused() {
    UUID teamId = createTeam(ownerToken("carol"));
    gateway
        .get()
        .uri("/api/v1/teams/{id}/events", teamId)
        .header("Authorization", "Bearer " + ownerToken("mallory"))
        .exchangeToMono(r -> reactor.core.publisher.Mono.just(r.statusCode().value()))
        .as(m -> assertThat(m.block(Duration.ofSeconds(10))).isEqualTo(404));
    gateway
        .get()
        .uri("/api/v1/teams/{id}", teamId)
        .exchangeToMono(r -> reactor.core.publisher.Mono.just(r.statusCode().value()))
        .as(m -> assertThat(m.block(Duration.ofSeconds(10))).isEqualTo(401));
  }

  @Test
  void theGatewaysPublicPortServesNoActuatorItsManagementPortDoes() {
    for (String path : List.of("/actuator/prometheus", "/actuator/health", "/actuator")) {
      var answer =
          WebClient.create(stack.url(Service.GATEWAY))
              .get()
              .uri(path)
              .exchangeToMono(
                  r ->
                      r.bodyToMono(String.class)
                          .defaultIfEmpty("")
                          .map(body -> Map.entry(r.statusCode().value(), body)))
              .block(Duration.ofSeconds(10));
      assertThat(answer.getKey())
          .as(path + " on the public port: " + answer.getValue())
          .isEqualTo(404);
    }
    assertThat(stack.managementUrl(Service.GATEWAY)).isNotEqualTo(stack.url(Service.GATEWAY));
    String metrics =
        WebClient.create(stack.managementUrl(Service.GATEWAY))
            .get()
            .uri("/actuator/prometheus")
            .retrieve()
            .bodyToMono(String.class)
            .block(Duration.ofSeconds(10));
    assertThat(metrics).contains("# TYPE http_server_requests_seconds");
  }

  @Test
  void everyServiceReportsReadyWithItsDatabaseAndKafka() {
    for (Service service : Service.values()) {
      Map<?, ?> health =
          WebClient.create(stack.managementUrl(service))
              .get()
              .uri("/actuator/health/readiness")
              .retrieve()
              .bodyToMono(Map.class)
              .block(Duration.ofSeconds(10));
      assertThat(health.get("status")).as(service.id()).isEqualTo("UP");
      assertThat(((Map<?, ?>) health.get("components")).containsKey("kafka"))
          .as(service.id())
          .isTrue();
    }
  }

  private static String ownerToken(String owner) {
    Map<?, ?> token =
        gateway
            .post()
            .uri("/dev/tokens")
            .bodyValue(Map.of("owner_id", owner))
            .retrieve()
            .bodyToMono(Map.class)
            .block(Duration.ofSeconds(10));
    return (String) token.get("access_token");
  }

  private static UUID createTeam(String token) {
    for (String agent : List.of("agent-a", "agent-b")) {
      gateway
          .post()
          .uri("/api/v1/agents")
          .header("Authorization", "Bearer " + token)
          .bodyValue(Map.of("id", agent, "name", agent))
          .exchangeToMono(response -> response.releaseBody())
          .block(Duration.ofSeconds(10));
    }
    Map<?, ?> team =
        gateway
            .post()
            .uri("/api/v1/teams")
            .header("Authorization", "Bearer " + token)
            .bodyValue(
                Map.of(
                    "name", "Skeleton team",
                    "goal", "Prove the pipeline",
                    "members",
                        List.of(
                            Map.of("name", "lead-writer", "agent_id", "agent-a", "lead", true),
                            Map.of("name", "researcher", "agent_id", "agent-b"))))
            .retrieve()
            .bodyToMono(Map.class)
            .block(Duration.ofSeconds(10));
    return UUID.fromString((String) team.get("id"));
  }

  private static Flux<ServerSentEvent<String>> stream(UUID teamId, String token) {
    return gateway
        .get()
        .uri("/api/v1/teams/{id}/events", teamId)
        .header("Authorization", "Bearer " + token)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .retrieve()
        .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {});
  }

  private static Rosters rosters(Service service) {
    return stack.context(service).getBean(Rosters.class);
  }

  private static MeterRegistry meters(Service service) {
    return stack.context(service).getBean(MeterRegistry.class);
  }

  private static double duplicates(Service service) {
    return meters(service)
        .counter("agentteams.consumer.events", "subscription", "roster", "outcome", "duplicate")
        .count();
  }

  private static DatabaseClient db(Service service) {
    return stack.context(service).getBean(DatabaseClient.class);
  }

  private static OffsetDateTime rosterUpdatedAt(Service service, UUID teamId) {
    return db(service)
        .sql("SELECT updated_at FROM platform.roster_team WHERE team_id = :team")
        .bind("team", teamId)
        .map(row -> row.get("updated_at", OffsetDateTime.class))
        .one()
        .block();
  }

  /** How often the service's roster subscription marked the event processed. */
  private static long processed(Service service, String eventId) {
    // Other subscriptions read team events too (the scheduler's team context): count the roster's.
    return db(service)
        .sql(
            "SELECT count(*) AS n FROM platform.processed_event"
                + " WHERE event_id = :id AND consumer LIKE '%.roster'")
        .bind("id", UUID.fromString(eventId))
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  private static String eventId(ConsumerRecord<String, String> record) {
    return new String(record.headers().lastHeader("event_id").value());
  }

  private static ConsumerRecord<String, String> publishedTeamEvent(UUID teamId) {
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                infrastructure.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "e2e-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.subscribe(List.of(Topics.TEAM_EVENTS));
      List<ConsumerRecord<String, String>> found = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(found::add);
                return found.stream().anyMatch(r -> r.key().equals(teamId.toString()));
              });
      return found.stream().filter(r -> r.key().equals(teamId.toString())).findFirst().get();
    }
  }

  private static KafkaProducer<String, String> producer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
  }
}
