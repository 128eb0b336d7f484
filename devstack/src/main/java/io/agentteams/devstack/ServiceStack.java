package io.agentteams.devstack;

import io.agentteams.gateway.GatewayApplication;
import io.agentteams.mailbox.MailboxApplication;
import io.agentteams.scheduler.SchedulerApplication;
import io.agentteams.taskboard.TaskBoardApplication;
import io.agentteams.team.TeamApplication;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * All five services as separate Spring applications in this JVM, each with its own configuration
 * file, port and database, talking to one another only through Kafka and HTTP as they would in a
 * cluster.
 */
public final class ServiceStack implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ServiceStack.class);

  /** How long a service's own event loops get to finish their tasks at its stop. */
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

  /** The services in start order: the gateway last, once it knows where the others listen. */
  public enum Service {
    TEAM("team-service", "team", 8081, TeamApplication.class, TeamApplication::application),
    MAILBOX(
        "mailbox-service",
        "mailbox",
        8082,
        MailboxApplication.class,
        MailboxApplication::application),
    TASK_BOARD(
        "task-board-service",
        "taskboard",
        8083,
        TaskBoardApplication.class,
        TaskBoardApplication::application),
    SCHEDULER(
        "scheduler-service",
        "scheduler",
        8084,
        SchedulerApplication.class,
        SchedulerApplication::application),
    GATEWAY("ui-gateway", null, 8080, GatewayApplication.class, GatewayApplication::application);

    private final String id;
    private final @Nullable String database;
    private final int defaultPort;
    private final Class<?> mainClass;
    private final Supplier<SpringApplication> application;

    Service(
        String id,
        @Nullable String database,
        int defaultPort,
        Class<?> mainClass,
        Supplier<SpringApplication> application) {
      this.id = id;
      this.database = database;
      this.defaultPort = defaultPort;
      this.mainClass = mainClass;
      this.application = application;
    }

    /** The service's name, as in its configuration file and the port property. */
    public String id() {
      return id;
    }

    /** The port of the embedded default. */
    public int defaultPort() {
      return defaultPort;
    }

    /** The class whose {@code main} runs the service in a JVM of its own. */
    public String mainClass() {
      return mainClass.getName();
    }

    /** The service's own database, or null for the gateway. */
    public @Nullable String database() {
      return database;
    }
  }

  /** How to reach a database. */
  public record DatabaseAccess(String r2dbcUrl, String jdbcUrl, String username, String password) {}

  /**
   * What the stack runs against.
   *
   * @param kafkaBootstrapServers the broker
   * @param databases the database of each service that has one
   * @param ports the port of each service, 0 for any free one
   * @param properties extra properties for every service
   */
  public record Settings(
      String kafkaBootstrapServers,
      Map<Service, DatabaseAccess> databases,
      Map<Service, Integer> ports,
      Map<String, Object> properties) {}

  /**
   * The setting (in {@link Settings#properties()}) of the port the gateway serves its actuator on,
   * on 127.0.0.1; 0 or absent for any free one. The gateway's public port serves no actuator.
   */
  public static final String GATEWAY_MANAGEMENT_PORT =
      "agentteams.devstack.gateway-management-port";

  private static final String LOCAL_MANAGEMENT = "local.management.port";

  /** Auto-configurations only the gateway wants, which its jars bring onto the shared classpath. */
  private static final List<String> GATEWAY_ONLY =
      List.of(
          "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
          "org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
          "org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
          "org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration",
          "org.springframework.boot.security.oauth2.client.autoconfigure.reactive.ReactiveOAuth2ClientAutoConfiguration",
          "org.springframework.boot.security.oauth2.client.autoconfigure.reactive.ReactiveOAuth2ClientWebSecurityAutoConfiguration",
          "org.springframework.boot.thymeleaf.autoconfigure.ThymeleafAutoConfiguration");

  private final Map<Service, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
  private final Settings settings;
  private final Map<Service, Integer> stoppedPorts = new EnumMap<>(Service.class);
  private final @Nullable DevelopmentKeys keys;

  private ServiceStack(Settings settings, @Nullable DevelopmentKeys keys) {
    this.settings = settings;
    this.keys = keys;
  }

  /** Starts every service; if one fails, those already started are stopped again. */
  public static ServiceStack start(Settings settings) {
    ServiceStack stack = new ServiceStack(settings, DevelopmentKeys.generate());
    try {
      for (Service service : Service.values()) {
        stack.contexts.put(service, stack.run(service, settings));
      }
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  /**
   * Runs one service on its own with exactly the given settings and no development keys, as a
   * deployment would: for tests of what a service refuses to start without.
   */
  public static ConfigurableApplicationContext runAlone(Service service, Settings settings) {
    return new ServiceStack(settings, null).run(service, settings);
  }

  /** This stack's DEVELOPMENT ONLY keys, for another gateway (a test's) that joins it. */
  public DevelopmentKeys keys() {
    if (keys == null) {
      throw new IllegalStateException("a service run alone has no development keys");
    }
    return keys;
  }

  private ConfigurableApplicationContext run(Service service, Settings settings) {
    Map<String, Object> properties =
        properties(
            service,
            settings,
            keys,
            other ->
                contexts.containsKey(other)
                    ? url(other)
                    : "http://127.0.0.1:" + settings.ports().getOrDefault(other, 0));
    // One logging system serves every service in this JVM; the thread names tell them apart.
    properties.put("logging.include-application-name", false);
    SpringApplication application = service.application.get();
    // Spring Boot names the class whose main() it finds on the stack: DevStack's, whose logger the
    // run command's terminal shows. Each service's start-up lines are its own, for the log file.
    application.setMainApplicationClass(service.mainClass);
    // Each service its own event loops, not the JVM-wide ones: closing one service (its restart
    // in a test) would otherwise dispose the loops every other service's server runs on.
    application.addInitializers(
        context ->
            ((GenericApplicationContext) context)
                .registerBean(
                    "reactorResourceFactory",
                    ReactorResourceFactory.class,
                    () -> {
                      ReactorResourceFactory own = new ReactorResourceFactory();
                      own.setUseGlobalResources(false);
                      // Netty's default quiet period held each service's stop for 2 s after its
                      // server had closed; the stack stops its services one after another.
                      own.setShutdownQuietPeriod(Duration.ZERO);
                      own.setShutdownTimeout(SHUTDOWN_TIMEOUT);
                      return own;
                    }));
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("spring.config.name", service.id());
    application.setDefaultProperties(defaults);
    // Whoever owns the stack stops it, services before the broker and the database they use
    // (close()); Spring's own hook would stop each service at the same time as those.
    application.setRegisterShutdownHook(false);
    List<String> args = new ArrayList<>();
    properties.forEach((key, value) -> args.add("--" + key + "=" + value));
    return application.run(args.toArray(String[]::new));
  }

  /**
   * The properties that run one service against the settings, as command-line arguments of a Spring
   * application in this JVM or in one of its own.
   *
   * @param keys the DEVELOPMENT ONLY keys of the stack, each service given only those it holds
   *     (none: the settings must bring them)
   * @param urlOf where the gateway reaches each other service
   */
  public static Map<String, Object> properties(
      Service service,
      Settings settings,
      @Nullable DevelopmentKeys keys,
      Function<Service, String> urlOf) {
    Map<String, Object> properties =
        new LinkedHashMap<>(keys == null ? Map.of() : keys.settingsFor(service));
    properties.putAll(settings.properties());
    properties.put("spring.kafka.bootstrap-servers", settings.kafkaBootstrapServers());
    properties.put("server.port", settings.ports().getOrDefault(service, 0));
    properties.put("spring.main.banner-mode", "off");
    if (service == Service.GATEWAY) {
      // The actuator (health, metrics) on a loopback port of its own, never on the public port.
      properties.put(
          "management.server.port", settings.properties().getOrDefault(GATEWAY_MANAGEMENT_PORT, 0));
      properties.put("management.server.address", "127.0.0.1");
      properties.put("agentteams.gateway.services.team", urlOf.apply(Service.TEAM));
      properties.put("agentteams.gateway.services.mailbox", urlOf.apply(Service.MAILBOX));
      properties.put("agentteams.gateway.services.task-board", urlOf.apply(Service.TASK_BOARD));
      properties.put("agentteams.gateway.services.scheduler", urlOf.apply(Service.SCHEDULER));
    } else {
      DatabaseAccess db = settings.databases().get(service);
      properties.put("spring.r2dbc.url", db.r2dbcUrl());
      properties.put("spring.r2dbc.username", db.username());
      properties.put("spring.r2dbc.password", db.password());
      properties.put("spring.flyway.url", db.jdbcUrl());
      properties.put("spring.flyway.user", db.username());
      properties.put("spring.flyway.password", db.password());
      // The gateway's classes share the stack's class path; only the gateway routes, signs people
      // in and renders pages.
      properties.put("spring.cloud.gateway.server.webflux.enabled", false);
      properties.put("spring.autoconfigure.exclude", String.join(",", GATEWAY_ONLY));
    }
    return properties;
  }

  /**
   * Stops one service, as a crash or a deploy of its process would: its clients' connections drop
   * and its port refuses new ones until {@link #startAgain} (tests that play such an outage).
   */
  public synchronized void stop(Service service) {
    stoppedPorts.put(service, port(service));
    contexts.remove(service).close();
  }

  /** Starts a service that {@link #stop} stopped, on the port it had. */
  public synchronized void startAgain(Service service) {
    Integer port = stoppedPorts.remove(service);
    if (port == null) {
      throw new IllegalStateException(service.id() + " was not stopped");
    }
    Map<Service, Integer> ports = new EnumMap<>(Service.class);
    ports.putAll(settings.ports());
    ports.put(service, port);
    contexts.put(
        service,
        run(
            service,
            new Settings(
                settings.kafkaBootstrapServers(),
                settings.databases(),
                ports,
                settings.properties())));
  }

  /** The port a running service listens on. */
  public int port(Service service) {
    ConfigurableApplicationContext context = contexts.get(service);
    if (!(context instanceof WebServerApplicationContext web)) {
      throw new IllegalStateException(service.id() + " is not running");
    }
    return web.getWebServer().getPort();
  }

  /**
   * Where a running service serves its actuator (health, metrics): the gateway on a management port
   * of its own, every other service on its port.
   */
  public String managementUrl(Service service) {
    ConfigurableApplicationContext context = contexts.get(service);
    String port = context == null ? null : context.getEnvironment().getProperty(LOCAL_MANAGEMENT);
    return port == null ? url(service) : "http://127.0.0.1:" + port;
  }

  /** The base URL of a running service on loopback. */
  public String url(Service service) {
    return "http://127.0.0.1:" + port(service);
  }

  /** The application context of a running service, for tests that look inside. */
  public ConfigurableApplicationContext context(Service service) {
    return contexts.get(service);
  }

  /**
   * Stops the services: the gateway first, so that no call comes in through it any more, then the
   * others at the same time (they share nothing but Kafka and the database server, and each stop
   * spends most of its time waiting for its consumers to leave their groups).
   */
  @Override
  public void close() {
    if (contexts.containsKey(Service.GATEWAY)) {
      stopOne(Service.GATEWAY);
    }
    AllAtOnce.run(
        "stop-service",
        new ArrayList<>(contexts.keySet())
            .stream().map(service -> (Runnable) () -> stopOne(service)).toList());
  }

  private void stopOne(Service service) {
    ConfigurableApplicationContext context;
    synchronized (this) {
      context = contexts.remove(service);
    }
    if (context != null) {
      context.close();
      log.info("Stopped {}", service.id());
    }
  }
}
