package io.agentteams.platform.messaging;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.autoconfigure.PlatformAutoConfiguration;
import io.agentteams.platform.consumer.ConsumerProperties;
import io.agentteams.platform.consumer.ConsumersHealthIndicator;
import io.agentteams.platform.consumer.EventListeners;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.consumer.IdempotentConsumer;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.platform.notification.NotificationProperties;
import io.agentteams.platform.notification.PostgresNotifications;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.outbox.OutboxCommits;
import io.agentteams.platform.outbox.OutboxProperties;
import io.agentteams.platform.outbox.OutboxRelay;
import io.agentteams.platform.outbox.PlatformHousekeeping;
import io.agentteams.platform.outbox.RelayCheckpoint;
import io.agentteams.platform.roster.RosterProperties;
import io.agentteams.platform.roster.RosterTombstones;
import io.agentteams.platform.roster.Rosters;
import io.agentteams.platform.schema.PlatformSchemaMigration;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcTransactionManagerAutoConfiguration;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Wires the outbox, its relay, the notification listener, the idempotent consumers and housekeeping
 * into a service.
 */
@AutoConfiguration(
    after = {
      PlatformAutoConfiguration.class,
      R2dbcAutoConfiguration.class,
      R2dbcTransactionManagerAutoConfiguration.class,
      KafkaAutoConfiguration.class
    },
    before = FlywayAutoConfiguration.class)
@EnableConfigurationProperties({
  OutboxProperties.class,
  ConsumerProperties.class,
  NotificationProperties.class
})
public class MessagingAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  TransactionalOperator transactionalOperator(ReactiveTransactionManager transactions) {
    return TransactionalOperator.create(transactions);
  }

  /** This process's commits of outbox rows, which wake its relay. */
  @Bean
  @ConditionalOnMissingBean
  OutboxCommits outboxCommits() {
    return new OutboxCommits();
  }

  @Bean
  @ConditionalOnMissingBean
  Outbox outbox(DatabaseClient db, EventCodec codec, EventTracing tracing, OutboxCommits commits) {
    return new Outbox(db, codec, tracing, commits);
  }

  @Bean
  @ConditionalOnMissingBean
  FlywayMigrationStrategy platformSchemaMigration() {
    return new PlatformSchemaMigration();
  }

  @Bean
  IdempotentConsumer idempotentConsumer(
      DatabaseClient db, TransactionalOperator transactions, EventTracing tracing) {
    return new IdempotentConsumer(db, transactions, tracing);
  }

  @Bean
  EventListeners eventListeners(
      @Value("${spring.application.name}") String application,
      KafkaProperties kafka,
      ObjectProvider<EventSubscription> subscriptions,
      IdempotentConsumer consumer,
      EventCodec codec,
      KafkaTemplate<Object, Object> deadLetters,
      ConsumerProperties properties,
      MeterRegistry meters) {
    return new EventListeners(
        application,
        kafka.buildConsumerProperties(),
        subscriptions.orderedStream().toList(),
        consumer,
        codec,
        deadLetters,
        properties,
        meters);
  }

  /** Readiness: {@code consumers} in a service's readiness group. */
  @Bean(name = "consumersHealthIndicator")
  ConsumersHealthIndicator consumersHealthIndicator(EventListeners listeners) {
    return new ConsumersHealthIndicator(listeners);
  }

  /** The process's one LISTEN connection, shared by the relay and any other subscriber. */
  @Bean
  @ConditionalOnMissingBean
  PostgresNotifications postgresNotifications(
      ConnectionFactory connectionFactory,
      NotificationProperties properties,
      MeterRegistry meters) {
    return new PostgresNotifications(connectionFactory, properties, meters);
  }

  @Bean
  PlatformHousekeeping platformHousekeeping(
      DatabaseClient db,
      OutboxProperties outbox,
      ConsumerProperties consumer,
      MeterRegistry meters) {
    return new PlatformHousekeeping(db, outbox, consumer, meters);
  }

  /** Prunes and measures every {@code prune-interval} on every replica. */
  @Bean
  PeriodicLoop platformHousekeepingLoop(
      PeriodicLoops loops, PlatformHousekeeping housekeeping, OutboxProperties outbox) {
    return loops
        .named("outbox-housekeeping")
        .every(outbox.pruneInterval())
        .firstAfter(Duration.ofSeconds(1))
        .running(housekeeping::runOnce);
  }

  /** The roster projection, for services that need to know teams' members. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = "agentteams.roster.enabled", havingValue = "true")
  @EnableConfigurationProperties(RosterProperties.class)
  static class RosterConfiguration {

    @Bean
    Rosters rosters(DatabaseClient db, EventCodec codec, RosterProperties properties) {
      return new Rosters(db, codec, properties.tombstoneRetention(), Clock.systemUTC());
    }

    @Bean
    RosterTombstones rosterTombstones(
        DatabaseClient db, RosterProperties properties, MeterRegistry meters) {
      return new RosterTombstones(db, properties.tombstoneRetention(), meters);
    }

    /** Purges expired tombstones of deleted teams every {@code tombstone-purge-interval}. */
    @Bean
    PeriodicLoop rosterTombstonePurgeLoop(
        PeriodicLoops loops, RosterTombstones tombstones, RosterProperties properties) {
      return loops
          .named("roster-tombstone-purge")
          .every(properties.tombstonePurgeInterval())
          .firstAfter(Duration.ofMinutes(1))
          .running(tombstones::purge);
    }

    @Bean
    EventSubscription rosterSubscription(Rosters rosters) {
      return EventSubscription.of("roster", Topics.TEAM_EVENTS, rosters.handler());
    }
  }

  /** The relay, when this instance runs one (every replica may). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(
      name = "agentteams.outbox.relay-enabled",
      havingValue = "true",
      matchIfMissing = true)
  static class RelayConfiguration {

    @Bean
    OutboxRelayLifecycle outboxRelay(
        ConnectionFactory connectionFactory,
        TransactionalOperator transactions,
        KafkaProperties kafka,
        OutboxProperties properties,
        EventTracing tracing,
        PostgresNotifications notifications,
        OutboxCommits commits,
        MeterRegistry meters) {
      Map<String, Object> producer = new HashMap<>(kafka.buildProducerProperties());
      producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
      producer.put(ProducerConfig.ACKS_CONFIG, "all");
      producer.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
      producer.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
      producer.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
      KafkaProducer<String, String> kafkaProducer = new KafkaProducer<>(producer);
      KafkaClientMetrics producerMetrics = new KafkaClientMetrics(kafkaProducer);
      producerMetrics.bindTo(meters);
      return new OutboxRelayLifecycle(
          new OutboxRelay(
              connectionFactory,
              transactions,
              kafkaProducer,
              properties,
              RelayCheckpoint.NONE,
              tracing,
              notifications,
              commits,
              meters),
          kafkaProducer,
          producerMetrics);
    }
  }

  /** Starts the relay with the application and stops it, then its producer, on shutdown. */
  public static final class OutboxRelayLifecycle implements SmartLifecycle {

    private final OutboxRelay relay;
    private final KafkaProducer<String, String> producer;
    private final KafkaClientMetrics producerMetrics;
    private volatile boolean running;

    OutboxRelayLifecycle(
        OutboxRelay relay,
        KafkaProducer<String, String> producer,
        KafkaClientMetrics producerMetrics) {
      this.relay = relay;
      this.producer = producer;
      this.producerMetrics = producerMetrics;
    }

    public OutboxRelay relay() {
      return relay;
    }

    @Override
    public void start() {
      relay.start();
      running = true;
    }

    @Override
    public void stop() {
      relay.close();
      producerMetrics.close();
      producer.close(Duration.ofSeconds(5));
      running = false;
    }

    /**
     * Keeps relaying while the test framework pauses a cached context: stopping closes the producer
     * for good, so a relay paused between test classes would never publish again.
     */
    @Override
    public boolean isPauseable() {
      return false;
    }

    @Override
    public boolean isRunning() {
      return running;
    }
  }
}
