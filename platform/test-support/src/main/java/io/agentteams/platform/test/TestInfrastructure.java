package io.agentteams.platform.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Kafka broker and Postgres shared by every test in this JVM. Started on first use,
 * stopped when the JVM exits.
 */
public final class TestInfrastructure {

  private static final Logger log = LoggerFactory.getLogger(TestInfrastructure.class);
  private static final AtomicInteger freshCounter = new AtomicInteger();
  private static @Nullable TestInfrastructure shared;

  private final Backend backend;

  private TestInfrastructure(Backend backend) {
    this.backend = backend;
  }

  /** The shared infrastructure, started on the first call. */
  public static synchronized TestInfrastructure shared() {
    if (shared == null) {
      EventLoopWatch.start();
      long started = System.nanoTime();
      Backend backend =
          DockerProbe.useContainers() ? new ContainerBackend() : new EmbeddedBackend(cacheDir());
      shared = new TestInfrastructure(backend);
      Runtime.getRuntime().addShutdownHook(new Thread(backend::close, "test-infrastructure-stop"));
      log.info(
          "Test infrastructure ({}) up in {} ms: Kafka at {}",
          backend.kind(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
          backend.kafkaBootstrapServers());
    }
    return shared;
  }

  static Path cacheDir() {
    String configured = System.getProperty("agentteams.cache.dir");
    return configured != null ? Path.of(configured) : Path.of(".cache").toAbsolutePath();
  }

  /** {@code host:port} of the Kafka broker. */
  public String kafkaBootstrapServers() {
    return backend.kafkaBootstrapServers();
  }

  /** The named database, created on first use and shared by every test that names it. */
  public Database database(String name) {
    return backend.database(name.toLowerCase(Locale.ROOT));
  }

  /** A database no other test has used. */
  public Database freshDatabase(String prefix) {
    return database(
        prefix + "_" + ProcessHandle.current().pid() + "_" + freshCounter.incrementAndGet());
  }

  /** Creates the topics with the given partition count, ignoring those that exist. */
  public void createTopics(int partitions, Collection<String> names) {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers()))) {
      List<NewTopic> topics =
          names.stream().map(n -> new NewTopic(n, partitions, (short) 1)).toList();
      for (var result : admin.createTopics(topics).values().values()) {
        try {
          result.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("could not create topics " + names, e.getCause());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not create topics " + names + " in time", e);
    }
  }

  /** Decides once whether a Docker engine is reachable, cheaply before asking Testcontainers. */
  static final class DockerProbe {

    private DockerProbe() {}

    static boolean useContainers() {
      String forced =
          System.getProperty(
              "agentteams.test.infrastructure",
              System.getenv().getOrDefault("AGENTTEAMS_TEST_INFRASTRUCTURE", "auto"));
      switch (forced) {
        case "embedded":
          return false;
        case "containers":
          return true;
        default:
          break;
      }
      Path home = Path.of(System.getProperty("user.home"));
      boolean hint =
          System.getenv("DOCKER_HOST") != null
              || Files.exists(Path.of("/var/run/docker.sock"))
              || Files.exists(home.resolve(".docker/run/docker.sock"))
              || Files.exists(home.resolve(".testcontainers.properties"));
      if (!hint) {
        return false;
      }
      try {
        return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
      } catch (RuntimeException | LinkageError e) {
        return false;
      }
    }
  }
}
