package io.agentteams.platform.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalInfrastructureTest {

  @TempDir Path dir;

  @Test
  void kafkaKeepsItsDataAcrossARestartOnTheSameDirectory() throws Exception {
    Path logDir = dir.resolve("kafka");
    int port = FreePorts.next();
    int controller = FreePorts.next();
    try (LocalKafka kafka = LocalKafka.start(logDir, port, controller, 2)) {
      try (var producer = producer(kafka)) {
        producer.send(new ProducerRecord<>("kept", "k", "before-restart")).get();
      }
    }
    try (LocalKafka kafka = LocalKafka.start(logDir, port, controller, 2);
        var consumer = consumer(kafka)) {
      consumer.subscribe(List.of("kept"));
      String seen = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (seen == null && System.nanoTime() < deadline) {
        ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
        for (var r : records) {
          seen = r.value();
        }
      }
      assertThat(seen).isEqualTo("before-restart");
    }
  }

  @Test
  void postgresKeepsItsDataAcrossARestartAndListensOnLoopback() throws Exception {
    Path data = dir.resolve("pg");
    Path binaries = Path.of(System.getProperty("agentteams.cache.dir", "target/cache"), "pg");
    int port;
    try (LocalPostgres pg = LocalPostgres.start(data, binaries, 0)) {
      port = pg.port();
      pg.createDatabase("kept");
      try (var c = DriverManager.getConnection(pg.jdbcUrl("kept"), LocalPostgres.USER, "")) {
        c.createStatement().execute("CREATE TABLE t(v text); INSERT INTO t VALUES ('x')");
        var rs = c.createStatement().executeQuery("SHOW listen_addresses");
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("127.0.0.1");
        rs = c.createStatement().executeQuery("SHOW synchronous_commit");
        rs.next();
        assertThat(rs.getString(1)).as("commits are durable, as in production").isEqualTo("on");
        rs = c.createStatement().executeQuery("SHOW wal_init_zero");
        rs.next();
        assertThat(rs.getString(1))
            .as("new WAL segments are not zero-filled while commits wait")
            .isEqualTo("off");
      }
    }
    try (LocalPostgres pg = LocalPostgres.start(data, binaries, port);
        var c = DriverManager.getConnection(pg.jdbcUrl("kept"), LocalPostgres.USER, "")) {
      var rs = c.createStatement().executeQuery("SELECT v FROM t");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("x");
    }
  }

  @Test
  void aSupervisedPostgresWhosePostmasterIsKilledIsStartedAgainWithItsData() throws Exception {
    Path data = dir.resolve("pg-killed");
    try (LocalPostgres pg = LocalPostgres.start(data, binaries(), 0)) {
      pg.createDatabase("kept");
      try (var c = DriverManager.getConnection(pg.jdbcUrl("kept"), LocalPostgres.USER, "")) {
        c.createStatement().execute("CREATE TABLE t(v text); INSERT INTO t VALUES ('x')");
      }
      pg.superviseEvery(Duration.ofMillis(200));
      ProcessHandle killed = pg.postmaster().orElseThrow();

      killed.destroyForcibly();
      killed.onExit().get(30, TimeUnit.SECONDS);

      await()
          .atMost(Duration.ofSeconds(90))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                try (var c =
                    DriverManager.getConnection(pg.jdbcUrl("kept"), LocalPostgres.USER, "")) {
                  var rs = c.createStatement().executeQuery("SELECT v FROM t");
                  assertThat(rs.next()).isTrue();
                  assertThat(rs.getString(1)).isEqualTo("x");
                }
              });
      assertThat(pg.postmaster()).get().isNotEqualTo(killed);
    }
  }

  @Test
  void aSecondStartOnAFolderInUseRefusesClearlyAndTheRunningServerKeepsServing() throws Exception {
    Path data = dir.resolve("pg-taken");
    try (LocalPostgres first = LocalPostgres.start(data, binaries(), 0)) {
      assertThatThrownBy(() -> LocalPostgres.start(data, binaries(), 0))
          .isInstanceOf(FolderLock.FolderInUseException.class)
          .hasMessageContaining(data.toString())
          .hasMessageContaining("is in use by process " + ProcessHandle.current().pid());
      try (var c = DriverManager.getConnection(first.jdbcUrl("postgres"), LocalPostgres.USER, "")) {
        var rs = c.createStatement().executeQuery("SELECT 1");
        assertThat(rs.next()).as("the first server still answers").isTrue();
      }
      assertThat(first.postmaster()).isPresent();
    }
  }

  @Test
  void aPidFileNamingAnotherProgramIsReportedAndRemovedAndThatProgramLeftRunning()
      throws Exception {
    Path data = dir.resolve("pg-stale");
    Process unrelated = new ProcessBuilder("sleep", "300").start();
    try {
      Files.createDirectories(data);
      Files.writeString(
          data.resolve("postmaster.pid"),
          unrelated.pid()
              + "\n"
              + data
              + "\n"
              + Instant.now().getEpochSecond()
              + "\n5432\n/tmp\n127.0.0.1\n0 0\nready\n");

      OrphanedPostmaster.Outcome outcome = LocalPostgres.stopOrphanedPostmaster(data);

      assertThat(outcome.action()).isEqualTo(OrphanedPostmaster.Action.IGNORED);
      assertThat(outcome.pid()).isEqualTo(unrelated.pid());
      assertThat(outcome.reason()).contains("sleep 300").contains("not a postmaster");
      assertThat(unrelated.isAlive()).as("never signalled").isTrue();
      assertThat(data.resolve("postmaster.pid")).doesNotExist();
    } finally {
      unrelated.destroyForcibly();
    }
  }

  @Test
  void aRunningPostmasterIsRecognisedAsOneOfItsOwnFolderOnly() throws Exception {
    Path data = dir.resolve("pg-own");
    try (LocalPostgres pg = LocalPostgres.start(data, binaries(), 0)) {
      ProcessHandle postmaster = pg.postmaster().orElseThrow();
      var lines = Files.readAllLines(data.resolve("postmaster.pid"));

      assertThat(OrphanedPostmaster.notAPostmasterOf(postmaster, data, lines))
          .as("a postmaster of this folder, started when its pid file says")
          .isEmpty();
      assertThat(OrphanedPostmaster.notAPostmasterOf(postmaster, dir.resolve("elsewhere"), lines))
          .hasValueSatisfying(reason -> assertThat(reason).contains("another folder"));
    }
  }

  private static Path binaries() {
    return Path.of(System.getProperty("agentteams.cache.dir", "target/cache"), "pg");
  }

  private static KafkaProducer<String, String> producer(LocalKafka kafka) {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new StringSerializer(),
        new StringSerializer());
  }

  private static KafkaConsumer<String, String> consumer(LocalKafka kafka) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, UUID.randomUUID().toString(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
        new StringDeserializer(),
        new StringDeserializer());
  }
}
