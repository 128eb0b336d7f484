package io.agentteams.devstack.fault;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything a team does at once — messages, claims, requests worked by scripted agents, public
 * state edits, and a live event stream per team — while a list of faults is injected one after
 * another, each once the workload has recovered from the one before. Checked with every checker.
 */
final class MixedLoad implements Scenario {

  private static final int SLOTS = 4;

  /** A fault to inject, by name. */
  record Step(String name, Function<FaultStack, FaultStack.Fault> inject) {}

  private final String name;
  private final Map<Service, Integer> replicas;
  private final List<Step> steps;

  MixedLoad(String name, Map<Service, Integer> replicas, List<Step> steps) {
    this.name = name;
    this.replicas = Map.copyOf(replicas);
    this.steps = List.copyOf(steps);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Map<Service, Integer> replicas() {
    return replicas;
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
    List<Team> chatting = List.of(team(client, owner, tag, "c0"), team(client, owner, tag, "c1"));
    List<Team> working = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      working.add(team(client, owner, tag, "w" + t));
    }
    Team board = team(client, owner, tag, "b");
    Team planning = team(client, owner, tag, "p");
    List<Team> all = new ArrayList<>(chatting);
    all.addAll(working);
    all.add(board);
    all.add(planning);

    TeamStreams streams = new TeamStreams(client, all);
    Messaging messaging = new Messaging(client, chatting, Integer.MAX_VALUE, 7, 1);
    Admission admission =
        new Admission(client, working, 25, Duration.ofMillis(1500), Duration.ofSeconds(1));
    Claims claims = new Claims(client, board, 40, true);
    StateUpdates state = new StateUpdates(client, planning);
    streams.start();
    messaging.start();
    admission.start();
    claims.start();
    state.start();
    List<Recovery.Signal> signals =
        List.of(
            Recovery.Signal.of("send", messaging.sends(), "send"),
            new Recovery.Signal(
                "delivery", t -> MailboxKills.firstDeliveryAfter(messaging, t), t -> true),
            new Recovery.Signal(
                "admission",
                t -> SchedulerKills.firstStartAfter(admission, t),
                t -> admission.reports().ops().stream().anyMatch(op -> op.invokedNanos() >= t)),
            Recovery.Signal.of("claim", claims.claims(), "claim"),
            Recovery.Signal.of("update", state.updates(), "update"),
            Recovery.Signal.of("stream", streams.received(), "event"));

    await().atMost(Duration.ofMinutes(5)).until(() -> messaging.acknowledged() >= 40);
    List<FaultStack.Fault> faults = new ArrayList<>();
    for (Step step : steps) {
      FaultStack.Fault fault = step.inject().apply(stack);
      faults.add(fault);
      stack.awaitReady();
      await()
          .atMost(Duration.ofMinutes(5))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> Recovery.recovered(fault.injectedNanos(), signals));
      int mark = messaging.acknowledged();
      await().atMost(Duration.ofMinutes(5)).until(() -> messaging.acknowledged() >= mark + 40);
    }

    messaging.stopSending();
    claims.stop();
    state.stop();
    await().atMost(Duration.ofMinutes(10)).until(admission::requestersDone);
    await()
        .atMost(Duration.ofMinutes(10))
        .pollInterval(Duration.ofSeconds(1))
        .until(admission::allFinished);
    admission.stop();
    await().atMost(Duration.ofMinutes(5)).until(messaging::sendersDone);
    messaging.drainAndStop(Duration.ofMinutes(5));
    List<TeamStreams.Published> published = streams.published(stack.kafkaBootstrapServers());
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> streams.caughtUp(streams.published(stack.kafkaBootstrapServers())));
    streams.stop();
    published = streams.published(stack.kafkaBootstrapServers());

    var inboxes = messaging.finalInboxes();
    var states = admission.finalStates();
    var owners = claims.finalOwners();
    var entry = state.finalEntry();
    messaging.sends().writeTo(records.resolve(tag + "-sends.jsonl"));
    messaging.reads().writeTo(records.resolve(tag + "-reads.jsonl"));
    admission.requests().writeTo(records.resolve(tag + "-requests.jsonl"));
    admission.reports().writeTo(records.resolve(tag + "-reports.jsonl"));
    claims.claims().writeTo(records.resolve(tag + "-claims.jsonl"));
    state.updates().writeTo(records.resolve(tag + "-updates.jsonl"));
    streams.received().writeTo(records.resolve(tag + "-stream.jsonl"));

    List<Anomaly> anomalies = new ArrayList<>();
    anomalies.addAll(
        MessageChecker.check(messaging.sends().ops(), messaging.reads().ops(), inboxes));
    anomalies.addAll(
        AdmissionChecker.check(
            admission.requests().ops(), admission.reports().ops(), states, SLOTS));
    anomalies.addAll(ClaimChecker.check(claims.claims().ops(), owners));
    anomalies.addAll(StateChecker.check(state.updates().ops(), entry));
    anomalies.addAll(StreamChecker.check(streams.received().ops(), published));
    client
        .notProblemDetails()
        .forEach(e -> anomalies.add(new Anomaly(Anomaly.Kind.OTHER, "not Problem Details: " + e)));
    int operations =
        messaging.sends().size()
            + messaging.reads().size()
            + admission.requests().size()
            + admission.reports().size()
            + claims.claims().size()
            + state.updates().size()
            + streams.received().size();
    return new Row(name, operations, faults.size(), anomalies, Recovery.longest(faults, signals));
  }

  private static Team team(Client client, String owner, String tag, String suffix) {
    return Team.create(client, owner, tag + "-" + suffix, 4);
  }

  /** {@code kill -9} of a replica. */
  static Step kill(Service service, int replica) {
    return new Step(
        "kill -9 " + service.id() + "-" + replica, stack -> stack.kill(service, replica));
  }
}
