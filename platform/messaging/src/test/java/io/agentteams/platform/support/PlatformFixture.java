package io.agentteams.platform.support;

import io.agentteams.platform.consumer.ConsumerProperties;
import io.agentteams.platform.consumer.EventListeners;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.consumer.IdempotentConsumer;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.notification.NotificationProperties;
import io.agentteams.platform.notification.PostgresNotifications;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.outbox.OutboxCommits;
import io.agentteams.platform.outbox.OutboxProperties;
import io.agentteams.platform.outbox.OutboxRelay;
import io.agentteams.platform.outbox.RelayCheckpoint;
import io.agentteams.platform.schema.PlatformSchemaMigration;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.TestInfrastructure;
import io.agentteams.platform.test.TestTracing;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.flywaydb.core.Flyway;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The platform's pieces assembled by hand on a fresh database and the shared broker, so a test can
 * run several relays and consumers side by side and stop them at will.
 */
public final class PlatformFixture implements AutoCloseable {

  public final TestInfrastructure infrastructure;
  public final Database database;
  public final ConnectionPool connections;
  public final DatabaseClient db;
  public final TransactionalOperator transactions;
  public final EventCodec codec;
  public final Outbox outbox;
  public final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  /** The commits of {@link #outbox}, which wake the fixture's relays as a process's relay. */
  public final OutboxCommits commits = new OutboxCommits();

  /** Records every span the relay, the outbox and the consumers start, in memory, if traced. */
  public final TestTracing traces = new TestTracing("fixture");

  /** What the outbox, relays and consumers trace with: nothing, unless the fixture is traced. */
  public final EventTracing tracing;

  private final ConnectionFactory direct;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  public PlatformFixture(TestInfrastructure infrastructure, String databasePrefix) {
    this(infrastructure, databasePrefix, false);
  }

  /**
   * @param traced whether the pieces trace into {@link #traces} (every span, kept in memory: not
   *     for benchmarks)
   */
  public PlatformFixture(TestInfrastructure infrastructure, String databasePrefix, boolean traced) {
    this.tracing =
        traced
            ? new EventTracing(traces.tracer(), traces.propagator(), traces.observations())
            : EventTracing.NONE;
    this.infrastructure = infrastructure;
    this.database = infrastructure.freshDatabase(databasePrefix);
    new PlatformSchemaMigration()
        .migrate(
            Flyway.configure()
                .dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/fixture")
                .load());
    ConnectionFactoryOptions options =
        ConnectionFactoryOptions.parse(database.r2dbcUrl())
            .mutate()
            .option(ConnectionFactoryOptions.USER, database.username())
            .option(ConnectionFactoryOptions.PASSWORD, database.password())
            .build();
    this.direct = ConnectionFactories.get(options);
    this.connections =
        new ConnectionPool(ConnectionPoolConfiguration.builder(direct).maxSize(20).build());
    this.db = DatabaseClient.create(connections);
    this.transactions = TransactionalOperator.create(new R2dbcTransactionManager(connections));
    this.codec = new EventCodec("fixture", Clock.systemUTC());
    this.outbox = new Outbox(db, codec, tracing, commits);
  }

  /** A connection of its own, outside the pool (e.g. to LISTEN); closed with the fixture. */
  public PostgresqlConnection directConnection() {
    PostgresqlConnection connection = (PostgresqlConnection) Mono.from(direct.create()).block();
    closeables.add(0, () -> Mono.from(connection.close()).block());
    return connection;
  }

  /**
   * Refuses or allows new sessions on this database (sessions already open are not affected), from
   * a session on another database, as Postgres refuses it from the database itself.
   */
  public void allowNewSessions(boolean allow) {
    Database admin = infrastructure.database("fixture_admin");
    try (java.sql.Connection connection =
            DriverManager.getConnection(admin.jdbcUrl(), admin.username(), admin.password());
        Statement statement = connection.createStatement()) {
      statement.execute(
          "ALTER DATABASE \"" + database.name() + "\" WITH ALLOW_CONNECTIONS " + allow);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Ends the notification listeners' sessions on this database with {@code pg_terminate_backend}.
   *
   * @return how many were ended
   */
  public long killNotificationSessions() {
    return db.sql(
            "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity"
                + " WHERE datname = current_database() AND application_name = :name")
        .bind("name", PostgresNotifications.APPLICATION_NAME)
        .map(row -> row.get("ended", Boolean.class))
        .all()
        .filter(Boolean::booleanValue)
        .count()
        .block();
  }

  /**
   * A relay on this database, not yet started, with a notification listener of its own as a replica
   * has.
   */
  public OutboxRelay relay(OutboxProperties properties, RelayCheckpoint checkpoint) {
    KafkaProducer<String, String> producer = relayProducer();
    OutboxRelay relay =
        new OutboxRelay(
            connections,
            transactions,
            producer,
            properties,
            checkpoint,
            tracing,
            notifications(),
            commits,
            meters);
    closeables.add(producer);
    closeables.add(0, relay);
    return relay;
  }

  /** A started notification listener on this database, with back-off of the defaults. */
  public PostgresNotifications notifications() {
    return notifications(NotificationProperties.defaults());
  }

  /** A started notification listener on this database; closed with the fixture. */
  public PostgresNotifications notifications(NotificationProperties properties) {
    PostgresNotifications notifications =
        new PostgresNotifications(connections, properties, meters);
    notifications.start();
    closeables.add(0, notifications);
    return notifications;
  }

  public KafkaProducer<String, String> relayProducer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            infrastructure.kafkaBootstrapServers(),
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            0,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class));
  }

  /** Event listeners for the subscriptions, not yet started. */
  public EventListeners listeners(
      ConsumerProperties properties, List<EventSubscription> subscriptions) {
    return listeners("fixture-" + UUID.randomUUID(), Map.of(), properties, subscriptions);
  }

  /**
   * Event listeners of the named application (whose groups are {@code
   * <application>.<subscription>}) with extra consumer settings, not yet started.
   */
  public EventListeners listeners(
      String application,
      Map<String, Object> consumerSettings,
      ConsumerProperties properties,
      List<EventSubscription> subscriptions) {
    Map<String, Object> consumer = new java.util.HashMap<>(consumerSettings);
    consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers());
    var template =
        new KafkaTemplate<Object, Object>(
            new DefaultKafkaProducerFactory<>(
                Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    infrastructure.kafkaBootstrapServers(),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                    StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    StringSerializer.class)));
    EventListeners listeners =
        new EventListeners(
            application,
            consumer,
            subscriptions,
            new IdempotentConsumer(db, transactions, tracing),
            codec,
            template,
            properties,
            meters);
    closeables.add(0, listeners::stop);
    return listeners;
  }

  /** A plain consumer reading the topics from the beginning. */
  public KafkaConsumer<String, String> rawConsumer(List<String> topics) {
    KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                infrastructure.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "raw-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new StringDeserializer());
    consumer.subscribe(topics);
    closeables.add(0, consumer);
    return consumer;
  }

  /** Reads records until the predicate holds for what was read, or fails after the timeout. */
  public static List<ConsumerRecord<String, String>> readUntil(
      KafkaConsumer<String, String> consumer,
      List<ConsumerRecord<String, String>> sink,
      java.util.function.Predicate<List<ConsumerRecord<String, String>>> done,
      Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.test(sink)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gave up after " + timeout + " with " + sink.size() + " records");
      }
      for (var record : consumer.poll(Duration.ofMillis(100))) {
        sink.add(record);
      }
    }
    return sink;
  }

  /** A fresh topic name. */
  public static String topic(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
    connections.dispose();
  }
}
