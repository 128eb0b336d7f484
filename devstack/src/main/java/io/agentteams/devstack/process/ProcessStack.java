package io.agentteams.devstack.process;

import io.agentteams.devstack.DevelopmentKeys;
import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.platform.embedded.FreePorts;
import io.agentteams.platform.embedded.LocalKafka;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack as separate processes on one machine: Kafka (KRaft) in a JVM of its own and every
 * service in its own JVM, optionally several replicas of each on the same database, behind one
 * loopback address per service ({@link ServiceFront}). Any part can be killed; each is started
 * again when it ends unasked. Postgres, a process of its own anyway, is the caller's.
 */
public final class ProcessStack implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ProcessStack.class);
  // Generous: on two busy cores a service has taken over four minutes to start.
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(10);
  private static final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * What to run.
   *
   * @param home the data folder: Kafka's data, the parts' logs
   * @param classpath the class path of every part's JVM (the run command's, resolved by the build)
   * @param replicas replicas of each service (0 to 4, 0 for a service not run at all; 1 for a
   *     service not named)
   * @param ports the address of each service (its front when it has several replicas)
   * @param kafkaPort the broker's client port (0 for any free one)
   * @param kafkaControllerPort the broker's controller port (0 for any free one)
   * @param databases the database of each service that has one
   * @param properties extra properties for every service
   * @param restartOnExit whether a part that ends unasked is started again
   */
  public record Settings(
      Path home,
      String classpath,
      Map<Service, Integer> replicas,
      Map<Service, Integer> ports,
      int kafkaPort,
      int kafkaControllerPort,
      Map<Service, DatabaseAccess> databases,
      Map<String, Object> properties,
      boolean restartOnExit) {

    public Settings {
      replicas = Map.copyOf(replicas);
      replicas.forEach(
          (service, count) -> {
            if (count < 0 || count > 4) {
              throw new IllegalArgumentException(
                  "replicas of " + service.id() + " must be 0 to 4, got " + count);
            }
          });
    }

    /** The replicas of one service. */
    public int replicas(Service service) {
      return replicas.getOrDefault(service, 1);
    }
  }

  private final Settings settings;
  private final ServiceStack.Settings services;
  private final ChildProcess kafka;
  private final String bootstrapServers;
  private final Map<Service, List<ChildProcess>> replicas = new EnumMap<>(Service.class);
  private final Map<Service, Integer> ports = new EnumMap<>(Service.class);
  private final List<Integer> gatewayManagementPorts = new ArrayList<>();
  private final List<ServiceFront> fronts = new ArrayList<>();

  /** DEVELOPMENT ONLY keys of this stack: every replica of a part holds the same ones. */
  private final DevelopmentKeys keys = DevelopmentKeys.generate();

  private ProcessStack(Settings settings, ChildProcess kafka, String bootstrapServers) {
    this.settings = settings;
    this.services =
        new ServiceStack.Settings(
            bootstrapServers, settings.databases(), Map.of(), settings.properties());
    this.kafka = kafka;
    this.bootstrapServers = bootstrapServers;
  }

  /** Starts Kafka, then every service replica, and waits until all are ready. */
  public static ProcessStack start(Settings settings) {
    ProcessStack stack = create(settings);
    try {
      stack.start();
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  /**
   * The stack, not started yet, so that whoever starts it can also stop it from another thread (a
   * shutdown hook) while it starts.
   */
  public static ProcessStack create(Settings settings) {
    reapOrphans(settings.home().resolve("logs"), settings.home());
    int brokerPort = settings.kafkaPort() == 0 ? FreePorts.next() : settings.kafkaPort();
    int controllerPort =
        settings.kafkaControllerPort() == 0 ? FreePorts.next() : settings.kafkaControllerPort();
    String bootstrap = "127.0.0.1:" + brokerPort;
    ProcessStack stack =
        new ProcessStack(
            settings, kafka(settings, brokerPort, controllerPort, bootstrap), bootstrap);
    stack.prepareServices();
    return stack;
  }

  /** Starts Kafka, then every service replica, and waits until all are ready. */
  public void start() {
    kafka.start();
    kafka.awaitReady(READY_TIMEOUT);
    replicas.values().forEach(own -> own.forEach(ChildProcess::start));
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    replicas
        .values()
        .forEach(
            own ->
                own.forEach(
                    replica ->
                        ready.add(
                            CompletableFuture.runAsync(() -> replica.awaitReady(READY_TIMEOUT)))));
    try {
      CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  /**
   * Stops the parts a stack on this folder left running when its own process was killed: those
   * whose pid files remain and whose command line names this folder (so that no process that merely
   * reuses a recorded pid is touched).
   */
  private static void reapOrphans(Path pids, Path home) {
    if (!Files.isDirectory(pids)) {
      return;
    }
    String marker = HOME_MARKER + home.toAbsolutePath();
    try (var files = Files.list(pids)) {
      for (Path pidFile : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        long pid;
        try {
          pid = Long.parseLong(Files.readString(pidFile).trim());
        } catch (NumberFormatException | IOException unreadable) {
          continue;
        }
        ProcessHandle.of(pid)
            .filter(ProcessHandle::isAlive)
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false))
            .ifPresent(
                orphan -> {
                  log.warn(
                      "Stopping {} (pid {}), left running by a stack that was killed",
                      pidFile.getFileName(),
                      orphan.pid());
                  orphan.destroy();
                  try {
                    orphan.onExit().get(30, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    orphan.destroyForcibly();
                  }
                });
        Files.deleteIfExists(pidFile);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A JVM option every part gets, naming the stack's folder, by which an orphan is recognised. */
  private static final String HOME_MARKER = "-Dagentteams.devstack.home=";

  private static ChildProcess kafka(
      Settings settings, int brokerPort, int controllerPort, String bootstrap) {
    Path data = settings.home().resolve("kafka");
    Path config = settings.home().resolve("kafka-config");
    Properties server =
        LocalKafka.serverProperties(data, brokerPort, controllerPort, partitions(settings));
    LocalKafka.format(data);
    Path serverFile = config.resolve("server.properties");
    Path logging = config.resolve("logback.xml");
    try {
      Files.createDirectories(config);
      try (OutputStream out = Files.newOutputStream(serverFile)) {
        server.store(out, "Written by the devstack at each start");
      }
      Files.writeString(logging, KAFKA_LOGGING, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(
        List.of(
            "-Xms128m",
            "-Xmx512m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-XX:+ExitOnOutOfMemoryError",
            HOME_MARKER + settings.home().toAbsolutePath(),
            "-Dlogback.configurationFile=" + logging.toAbsolutePath(),
            "-cp",
            settings.classpath(),
            "kafka.Kafka",
            serverFile.toAbsolutePath().toString()));
    return new ChildProcess(
        "kafka",
        command,
        settings.home().resolve("logs").resolve("kafka.log"),
        () -> kafkaAnswers(bootstrap),
        settings.restartOnExit());
  }

  private static int partitions(Settings settings) {
    Object configured = settings.properties().get("agentteams.kafka.partitions");
    return configured == null ? 12 : Integer.parseInt(configured.toString());
  }

  private static final String KAFKA_LOGGING =
      """
      <configuration>
        <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
        </appender>
        <logger name="kafka.server.KafkaRaftServer" level="INFO"/>
        <logger name="kafka.server.BrokerServer" level="INFO"/>
        <!-- Its own shutdown closes one client twice and says so. -->
        <logger name="org.apache.kafka.clients.NetworkClient" level="ERROR"/>
        <root level="WARN"><appender-ref ref="out"/></root>
      </configuration>
      """;

  private static boolean kafkaAnswers(String bootstrap) {
    String[] hostPort = bootstrap.split(":");
    try (Socket probe = new Socket()) {
      // The admin client would log a warning for every refused connection while Kafka starts.
      probe.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 1_000);
    } catch (IOException notYet) {
      return false;
    }
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                2_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                2_000))) {
      return !admin
          .describeCluster(new DescribeClusterOptions().timeoutMs(2_000))
          .nodes()
          .get(3, TimeUnit.SECONDS)
          .isEmpty();
    } catch (Exception notYet) {
      return false;
    }
  }

  private void prepareServices() {
    Map<Service, List<Integer>> replicaPorts = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      int port = settings.ports().getOrDefault(service, service.defaultPort());
      if (settings.replicas(service) <= 1) {
        replicaPorts.put(service, List.of(port == 0 ? FreePorts.next() : port));
        ports.put(service, replicaPorts.get(service).get(0));
      } else {
        List<Integer> own = new ArrayList<>();
        for (int i = 0; i < settings.replicas(service); i++) {
          own.add(FreePorts.next());
        }
        replicaPorts.put(service, own);
        ServiceFront front = ServiceFront.open(service.id(), port, own);
        fronts.add(front);
        ports.put(service, front.port());
      }
    }
    for (Service service : Service.values()) {
      List<ChildProcess> own = new ArrayList<>();
      List<Integer> servicePorts = replicaPorts.get(service);
      for (int i = 0; i < settings.replicas(service); i++) {
        own.add(replica(service, i + 1, servicePorts.get(i)));
      }
      replicas.put(service, own);
    }
  }

  private ChildProcess replica(Service service, int number, int port) {
    String name = service.id() + "-" + number;
    Map<String, Object> properties =
        new LinkedHashMap<>(ServiceStack.properties(service, services, keys, this::url));
    properties.put("server.port", port);
    int actuator = port;
    if (service == Service.GATEWAY) {
      // The gateway's actuator is on a loopback port of its own (see ServiceStack.properties);
      // the one configured for the first replica, a free one for any other.
      Object configured = services.properties().get(ServiceStack.GATEWAY_MANAGEMENT_PORT);
      actuator =
          number == 1 && configured != null && !"0".equals(configured.toString())
              ? Integer.parseInt(configured.toString())
              : FreePorts.next();
      properties.put("management.server.port", actuator);
      gatewayManagementPorts.add(actuator);
    }
    // The replica keeps its name across restarts: its consumers rejoin their groups at once.
    properties.put("agentteams.consumer.instance-id", name);
    if (service == Service.SCHEDULER) {
      properties.put("agentteams.scheduler.replica-id", name);
    }
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(serviceJvmOptions());
    command.addAll(
        List.of(
            HOME_MARKER + settings.home().toAbsolutePath(),
            "-Dfile.encoding=UTF-8",
            "-cp",
            settings.classpath(),
            service.mainClass()));
    properties.forEach((key, value) -> command.add("--" + key + "=" + value));
    String readiness = "http://127.0.0.1:" + actuator + "/actuator/health/readiness";
    return new ChildProcess(
        name,
        command,
        settings.home().resolve("logs").resolve(name + ".log"),
        () -> answersOk(readiness),
        settings.restartOnExit());
  }

  /**
   * The JVM options of every service replica: {@value #SERVICE_JVM_OPTIONS} (space-separated) when
   * set — the capacity benchmark gives the chart's pod settings — otherwise small heaps and the
   * first-tier JIT only, which start fastest for a stack someone kills parts of.
   */
  static List<String> serviceJvmOptions() {
    String configured = System.getProperty(SERVICE_JVM_OPTIONS, "").trim();
    if (!configured.isEmpty()) {
      return List.of(configured.split("\\s+"));
    }
    return List.of(
        "-Xms64m",
        "-Xmx384m",
        "-XX:MaxMetaspaceSize=256m",
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-Xss512k",
        "-XX:+ExitOnOutOfMemoryError");
  }

  /** The system property naming the service replicas' JVM options. */
  public static final String SERVICE_JVM_OPTIONS = "agentteams.devstack.service-jvm-options";

  private static boolean answersOk(String url) {
    try {
      HttpResponse<Void> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
              HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The base URL of a service (of its front when it has several replicas). */
  public String url(Service service) {
    return "http://127.0.0.1:" + ports.get(service);
  }

  /**
   * Where a service serves its actuator: the first gateway replica on its management port, every
   * other service on its port.
   */
  public String managementUrl(Service service) {
    return service == Service.GATEWAY && !gatewayManagementPorts.isEmpty()
        ? "http://127.0.0.1:" + gatewayManagementPorts.get(0)
        : url(service);
  }

  public String kafkaBootstrapServers() {
    return bootstrapServers;
  }

  /** The broker's process. */
  public ChildProcess kafka() {
    return kafka;
  }

  /** The replicas of a service, numbered from 1 in this order. */
  public List<ChildProcess> replicas(Service service) {
    return Collections.unmodifiableList(replicas.getOrDefault(service, List.of()));
  }

  /** Every process, the broker first. */
  public List<ChildProcess> processes() {
    List<ChildProcess> all = new ArrayList<>();
    all.add(kafka);
    replicas.values().forEach(all::addAll);
    return all;
  }

  /** Waits until every part runs and is ready, e.g. after a fault. */
  public void awaitReady(Duration timeout) {
    processes().forEach(process -> process.awaitReady(timeout));
  }

  /** Stops the gateway, then the other services, then the broker. */
  @Override
  public void close() {
    List<Service> order = new ArrayList<>(List.of(Service.values()));
    Collections.reverse(order);
    for (Service service : order) {
      List<CompletableFuture<Void>> stopping = new ArrayList<>();
      for (ChildProcess replica : replicas.getOrDefault(service, List.of())) {
        stopping.add(CompletableFuture.runAsync(replica::close));
      }
      CompletableFuture.allOf(stopping.toArray(CompletableFuture[]::new)).join();
    }
    fronts.forEach(ServiceFront::close);
    kafka.close();
  }
}
