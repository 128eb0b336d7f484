package io.agentteams.devstack.fault;

import io.agentteams.devstack.ServiceStack.Service;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The whole fault suite, a separate command like the benchmarks:
 *
 * <pre>./mvnw -B -Dfaults=all -pl devstack -am verify</pre>
 *
 * ({@code -Dfaults=messages,read-cut,...} runs some scenarios). Scenarios that need the same
 * replicas share a processes-mode stack, started fresh for them. It prints the table {@code
 * docs/faults.md} shows and every anomaly with its evidence, writes the record of every operation
 * under {@code target/faults/}, and exits non-zero when a checker found anything or a fault was not
 * recovered from.
 */
public final class FaultSuite {

  private static final Map<Service, Integer> ONE_EACH = Map.of();
  private static final Map<Service, Integer> TWO_GATEWAYS = Map.of(Service.GATEWAY, 2);

  /** The scenarios by key, in the order they run. */
  static Map<String, Scenario> scenarios() {
    Map<String, Scenario> all = new LinkedHashMap<>();
    all.put(
        "messages",
        new MailboxKills(
            "mailbox kill -9 ×3 during 10,000 directed messages and broadcasts",
            10_000,
            3,
            1,
            null));
    all.put(
        "read-cut",
        new MailboxKills(
            "mailbox kill -9 ×3 cutting unread reads, 2 readers per inbox", 2_000, 3, 2, null));
    all.put(
        "kafka",
        new MixedLoad(
            "Kafka restarted under mixed load (SIGTERM, then kill -9)",
            ONE_EACH,
            List.of(
                new MixedLoad.Step("restart kafka", stack -> stack.restartKafka(false)),
                new MixedLoad.Step("kill -9 kafka", stack -> stack.restartKafka(true)))));
    all.put(
        "postgres",
        new MixedLoad(
            "Postgres restarted under mixed load (fast, then immediate)",
            ONE_EACH,
            List.of(
                new MixedLoad.Step("restart postgres fast", stack -> stack.restartPostgres(false)),
                new MixedLoad.Step(
                    "restart postgres immediate", stack -> stack.restartPostgres(true)))));
    all.put(
        "each-service",
        new MixedLoad(
            "each service kill -9 in turn under mixed load (2 gateways)",
            TWO_GATEWAYS,
            List.of(
                MixedLoad.kill(Service.TEAM, 1),
                MixedLoad.kill(Service.MAILBOX, 1),
                MixedLoad.kill(Service.TASK_BOARD, 1),
                MixedLoad.kill(Service.SCHEDULER, 1),
                MixedLoad.kill(Service.GATEWAY, 1))));
    all.put(
        "sse",
        new MixedLoad(
            "SSE subscribers resume with Last-Event-ID through gateway kills (2 gateways)",
            TWO_GATEWAYS,
            List.of(MixedLoad.kill(Service.GATEWAY, 1), MixedLoad.kill(Service.GATEWAY, 2))));
    Map<Service, Integer> twoEach = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      twoEach.put(service, 2);
    }
    all.put(
        "replicas",
        new MixedLoad(
            "two replicas of every service, one of each kill -9 (relays included)",
            twoEach,
            List.of(
                MixedLoad.kill(Service.MAILBOX, 1),
                MixedLoad.kill(Service.SCHEDULER, 2),
                MixedLoad.kill(Service.TASK_BOARD, 1),
                MixedLoad.kill(Service.TEAM, 2),
                MixedLoad.kill(Service.GATEWAY, 1))));
    return all;
  }

  public static void main(String[] args) {
    String wanted = System.getProperty("faults", "all");
    Map<String, Scenario> scenarios = scenarios();
    List<String> keys =
        wanted.equals("all")
            ? List.copyOf(scenarios.keySet())
            : Arrays.stream(wanted.split(",")).map(String::trim).toList();
    Set<String> unknown =
        keys.stream().filter(k -> !scenarios.containsKey(k)).collect(Collectors.toSet());
    if (!unknown.isEmpty()) {
      System.err.println("Unknown scenarios " + unknown + "; known: " + scenarios.keySet());
      System.exit(2);
    }
    Path records = Path.of("target", "faults", "suite").toAbsolutePath();
    long started = System.nanoTime();
    List<Row> rows = run(keys.stream().map(scenarios::get).toList(), records);
    String table =
        Row.HEADER + "\n" + rows.stream().map(Row::line).collect(Collectors.joining("\n"));
    StringBuilder report = new StringBuilder();
    report
        .append("Fault suite, ")
        .append(Instant.now())
        .append(", ")
        .append(Duration.ofNanos(System.nanoTime() - started).toMinutes())
        .append(" min\n\n")
        .append(table)
        .append("\n");
    for (Row row : rows) {
      for (Anomaly anomaly : row.anomalies()) {
        report
            .append("\n")
            .append(row.scenario())
            .append(": ")
            .append(anomaly.kind())
            .append(": ")
            .append(anomaly.evidence());
      }
    }
    System.out.println("\n" + report);
    try {
      Files.createDirectories(records);
      Files.writeString(records.resolve("results.md"), report);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    System.exit(rows.stream().allMatch(Row::clean) ? 0 : 1);
  }

  /** Runs the scenarios, those needing the same replicas on one fresh stack, in order. */
  static List<Row> run(List<Scenario> scenarios, Path records) {
    Map<Map<Service, Integer>, List<Scenario>> byTopology = new LinkedHashMap<>();
    for (Scenario scenario : scenarios) {
      byTopology.computeIfAbsent(scenario.replicas(), r -> new ArrayList<>()).add(scenario);
    }
    Map<Scenario, Row> rows = new LinkedHashMap<>();
    int stackNumber = 0;
    for (var group : byTopology.entrySet()) {
      Map<String, Object> properties = new LinkedHashMap<>();
      group.getValue().forEach(s -> properties.putAll(s.properties()));
      // Every scenario's admission runs at four slots, so that the bound is reached.
      properties.put("agentteams.scheduler.admission.slots", 4);
      Path home = records.resolve("stack-" + (++stackNumber));
      System.out.println("Starting a stack with replicas " + group.getKey() + " in " + home);
      try (FaultStack stack = FaultStack.start(home, group.getKey(), properties)) {
        for (Scenario scenario : group.getValue()) {
          System.out.println("Running: " + scenario.name());
          Row row;
          try {
            row = scenario.run(stack, records);
          } catch (RuntimeException e) {
            e.printStackTrace();
            row =
                new Row(
                    scenario.name(),
                    0,
                    stack.faults().size(),
                    List.of(new Anomaly(Anomaly.Kind.OTHER, "the scenario failed: " + e)),
                    -1);
          }
          System.out.println(Row.HEADER + "\n" + row.line());
          rows.put(scenario, row);
          stack.clearFaults();
        }
      }
    }
    List<Row> ordered = new ArrayList<>();
    scenarios.forEach(s -> ordered.add(rows.get(s)));
    return ordered;
  }
}
