package io.agentteams.platform.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka broker in KRaft mode (combined broker and controller) running inside this JVM, bound to
 * 127.0.0.1 only. Its log directory is kept across restarts when the caller gives a stable one.
 */
public final class LocalKafka implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LocalKafka.class);
  private static final String CONTROLLER_LISTENER = "CONTROLLER";

  private final KafkaRaftServer server;
  private final int brokerPort;

  private LocalKafka(KafkaRaftServer server, int brokerPort) {
    this.server = server;
    this.brokerPort = brokerPort;
  }

  /**
   * Formats the log directory if it is new and starts the broker.
   *
   * @param logDir where the broker keeps its data
   * @param brokerPort the client port, or 0 for any free one
   * @param controllerPort the KRaft controller port, or 0 for any free one
   * @param defaultPartitions partitions of auto-created topics
   */
  public static LocalKafka start(
      Path logDir, int brokerPort, int controllerPort, int defaultPartitions) {
    int broker = brokerPort == 0 ? FreePorts.next() : brokerPort;
    int controller = controllerPort == 0 ? FreePorts.next() : controllerPort;
    KafkaConfig config =
        new KafkaConfig(serverProperties(logDir, broker, controller, defaultPartitions), false);
    format(logDir);
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    log.info("Kafka (KRaft) listening on 127.0.0.1:{}, data in {}", broker, logDir);
    return new LocalKafka(server, broker);
  }

  /**
   * The settings of a single combined broker and controller on loopback, as this class runs it and
   * as a broker in a process of its own can be given them ({@code kafka.Kafka server.properties}).
   *
   * @param logDir where the broker keeps its data (created here)
   * @param broker the client port
   * @param controller the KRaft controller port
   * @param defaultPartitions partitions of auto-created topics
   */
  public static Properties serverProperties(
      Path logDir, int broker, int controller, int defaultPartitions) {
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controller);
    props.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + broker + ",CONTROLLER://127.0.0.1:" + controller);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + broker);
    props.put("controller.listener.names", CONTROLLER_LISTENER);
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("log.dirs", logDir.toAbsolutePath().toString());
    props.put("num.partitions", Integer.toString(defaultPartitions));
    props.put("auto.create.topics.enable", "true");
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "5");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("transaction.state.log.num.partitions", "5");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("log.retention.hours", "168");
    props.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
    // One broker on a developer's machine (two cores here) beside the services: a broker's default
    // thread pools (3 network threads, 8 request handlers, 4 group coordinator threads, 10
    // background threads) spent a tenth of the stack's processor time switching between threads
    // that each had little to do.
    props.put("num.network.threads", "1");
    props.put("num.io.threads", "2");
    props.put("group.coordinator.threads", "1");
    props.put("background.threads", "2");
    // Each partition's log is flushed and its producer state written at a stop (and recovered at a
    // start) by this many threads. They mostly wait for the disk: with the default two, closing the
    // logs took 1.3 s of the run command's stop on a loaded machine, with eight 0.6 s.
    props.put("num.recovery.threads.per.data.dir", "8");
    return props;
  }

  /** Formats the log directory as a new single-node cluster, unless it was formatted before. */
  public static void format(Path logDir) {
    if (Files.exists(logDir.resolve("meta.properties"))) {
      return;
    }
    try (PrintStream quiet = new PrintStream(OutputStream.nullOutputStream())) {
      new Formatter()
          .setPrintStream(quiet)
          .setNodeId(1)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toAbsolutePath().toString()))
          .setMetadataLogDirectory(logDir.toAbsolutePath().toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setControllerListenerName(CONTROLLER_LISTENER)
          .setIgnoreFormatted(true)
          .run();
    } catch (Exception e) {
      throw new IllegalStateException("could not format Kafka storage in " + logDir, e);
    }
  }

  /** {@code host:port} for clients. */
  public String bootstrapServers() {
    return "127.0.0.1:" + brokerPort;
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}
