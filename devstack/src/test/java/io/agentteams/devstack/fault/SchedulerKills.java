package io.agentteams.devstack.fault;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.fault.History.Op;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The owner asks members for work through two scheduler replicas while admission runs at its bound,
 * and one replica is killed ({@code kill -9}) mid-way: no job is admitted twice, admission never
 * exceeds its slots, every acknowledged job finishes.
 */
final class SchedulerKills implements Scenario {

  private static final int SLOTS = 4;

  private final String name;
  private final int requestsPerMember;
  private final int kills;

  SchedulerKills(String name, int requestsPerMember, int kills) {
    this.name = name;
    this.requestsPerMember = requestsPerMember;
    this.kills = kills;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Map<Service, Integer> replicas() {
    return Map.of(Service.SCHEDULER, 2);
  }

  @Override
  public Map<String, Object> properties() {
    return Map.of("agentteams.scheduler.admission.slots", SLOTS);
  }

  @Override
  public Row run(FaultStack stack, Path records) {
    Client client = new Client(stack.gatewayUrl());
    String tag = Tags.of(name);
    String owner = client.ownerToken("owner-" + tag);
    List<Team> teams = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      teams.add(Team.create(client, owner, tag + "-t" + t, 4));
    }
    Admission admission =
        new Admission(client, teams, requestsPerMember, Duration.ofMillis(300), Duration.ZERO);
    admission.start();
    int planned = 8 * requestsPerMember;
    List<FaultStack.Fault> faults = new ArrayList<>();
    for (int k = 1; k <= kills; k++) {
      int threshold = planned * k / (kills + 1);
      await()
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  admission.requests().ops("request").stream()
                          .filter(op -> op.outcome() == Outcome.OK)
                          .count()
                      >= threshold);
      // Alternate replicas, so each loses its admission loop, relays and streams in turn.
      faults.add(stack.kill(Service.SCHEDULER, 1 + (k - 1) % 2));
    }
    await().atMost(Duration.ofMinutes(10)).until(admission::requestersDone);
    stack.awaitReady();
    await()
        .atMost(Duration.ofMinutes(5))
        .pollInterval(Duration.ofSeconds(1))
        .until(admission::allFinished);
    admission.stop();
    Map<String, String> states = admission.finalStates();
    admission.requests().writeTo(records.resolve(tag + "-requests.jsonl"));
    admission.reports().writeTo(records.resolve(tag + "-reports.jsonl"));

    List<Anomaly> anomalies =
        new ArrayList<>(
            AdmissionChecker.check(
                admission.requests().ops(), admission.reports().ops(), states, SLOTS));
    client
        .notProblemDetails()
        .forEach(e -> anomalies.add(new Anomaly(Anomaly.Kind.OTHER, "not Problem Details: " + e)));
    long recovery =
        Recovery.longest(
            faults,
            List.of(
                Recovery.Signal.of("request", admission.requests(), "request"),
                new Recovery.Signal(
                    "admission",
                    t -> firstStartAfter(admission, t),
                    t ->
                        admission.reports().ops().stream()
                            .anyMatch(op -> op.invokedNanos() >= t))));
    return new Row(
        name,
        admission.requests().size() + admission.reports().size(),
        faults.size(),
        anomalies,
        recovery);
  }

  /** When a worker first started a job offered to it after the moment (a new admission). */
  static long firstStartAfter(Admission admission, long nanos) {
    java.util.Set<String> offeredAfter = new java.util.HashSet<>();
    for (Op<Admission.Report> op : admission.reports().ops("offer")) {
      if (op.invokedNanos() >= nanos) {
        offeredAfter.add(op.value().jobId());
      }
    }
    return admission.reports().ops("started").stream()
        .filter(op -> op.outcome() == Outcome.OK && offeredAfter.contains(op.value().jobId()))
        .mapToLong(Op::completedNanos)
        .min()
        .orElse(Long.MAX_VALUE);
  }
}
