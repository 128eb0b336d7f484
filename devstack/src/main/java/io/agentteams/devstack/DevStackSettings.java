package io.agentteams.devstack;

import io.agentteams.devstack.ServiceStack.Service;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The embedded stack's settings, from system properties (see {@link DevStack}).
 *
 * @param home the data folder
 * @param mode how the parts run
 * @param replicas replicas of each service (processes mode only)
 * @param postgresPort Postgres' port
 * @param kafkaPort the broker's client port
 * @param kafkaControllerPort the broker's controller port
 * @param ports each service's port
 * @param gatewayManagementPort the port of the gateway's actuator (health, metrics), on 127.0.0.1;
 *     the gateway's own port serves none
 * @param loopbackAgents whether webhook and A2A agents may have endpoints on 127.0.0.1, so agents
 *     on the developer's machine can be tried (DEVELOPMENT ONLY; the chart and compose refuse it)
 */
public record DevStackSettings(
    Path home,
    Mode mode,
    int replicas,
    int postgresPort,
    int kafkaPort,
    int kafkaControllerPort,
    Map<Service, Integer> ports,
    int gatewayManagementPort,
    boolean loopbackAgents) {

  /** How the parts run. */
  public enum Mode {
    /** Kafka and every service in this JVM (the default: least memory, fastest start). */
    SINGLE,
    /** Kafka and every service replica in a JVM of its own, so that any part can be killed. */
    PROCESSES
  }

  private static final String PREFIX = "agentteams.devstack.";

  public DevStackSettings {
    ports = Map.copyOf(ports);
    if (replicas < 1 || replicas > 4) {
      throw new IllegalArgumentException(PREFIX + "replicas must be 1 to 4, got " + replicas);
    }
    if (replicas > 1 && mode != Mode.PROCESSES) {
      throw new IllegalArgumentException(
          PREFIX + "replicas needs " + PREFIX + "mode=processes (one JVM holds one of each)");
    }
  }

  /** The settings the system properties give, with the embedded default's values otherwise. */
  public static DevStackSettings fromSystemProperties() {
    Map<Service, Integer> ports = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      ports.put(
          service, Integer.getInteger(PREFIX + "port." + service.id(), service.defaultPort()));
    }
    String mode = System.getProperty(PREFIX + "mode", "single").trim().toUpperCase(Locale.ROOT);
    Mode parsed;
    try {
      parsed = Mode.valueOf(mode);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          PREFIX
              + "mode must be 'single' or 'processes', got '"
              + mode.toLowerCase(Locale.ROOT)
              + "'");
    }
    return new DevStackSettings(
        Path.of(System.getProperty(PREFIX + "dir", ".devstack")).toAbsolutePath(),
        parsed,
        Integer.getInteger(PREFIX + "replicas", 1),
        Integer.getInteger(PREFIX + "postgres-port", 5433),
        Integer.getInteger(PREFIX + "kafka-port", 9092),
        Integer.getInteger(PREFIX + "kafka-controller-port", 9093),
        ports,
        Integer.getInteger(PREFIX + "port.ui-gateway-management", 8090),
        Boolean.parseBoolean(System.getProperty(PREFIX + "loopback-agents", "true")));
  }
}
