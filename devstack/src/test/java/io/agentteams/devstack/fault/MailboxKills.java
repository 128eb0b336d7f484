package io.agentteams.devstack.fault;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.fault.History.Op;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Directed messages and broadcasts between the members of a few teams while the mailbox process is
 * killed ({@code kill -9}) a number of times, evenly through the run; or, with concurrent readers
 * of each inbox, while reads are under way, so that kills cut their responses.
 */
final class MailboxKills implements Scenario {

  private final String name;
  private final int messages;
  private final int kills;
  private final int readersPerMember;
  private final @Nullable Duration readyWithin;

  /**
   * @param messages messages to send in all
   * @param kills how many times the mailbox is killed
   * @param readersPerMember concurrent readers of each inbox
   * @param readyWithin when set, each restarted mailbox must be ready (consumers joined) within it
   */
  MailboxKills(
      String name, int messages, int kills, int readersPerMember, @Nullable Duration readyWithin) {
    this.name = name;
    this.messages = messages;
    this.kills = kills;
    this.readersPerMember = readersPerMember;
    this.readyWithin = readyWithin;
  }

  @Override
  public String name() {
    return name;
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
    int perSender = Math.max(1, messages / 8);
    Messaging messaging = new Messaging(client, teams, perSender, 7, readersPerMember);
    messaging.start();
    List<FaultStack.Fault> faults = new ArrayList<>();
    for (int k = 1; k <= kills; k++) {
      int threshold = messaging.planned() * k / (kills + 1);
      await()
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> messaging.acknowledged() >= threshold);
      faults.add(stack.kill(Service.MAILBOX, 1));
      if (readyWithin != null) {
        await()
            .atMost(readyWithin)
            .pollInterval(Duration.ofMillis(250))
            .until(stack.processes().replicas(Service.MAILBOX).get(0)::isReady);
      }
    }
    await().atMost(Duration.ofMinutes(15)).until(messaging::sendersDone);
    stack.awaitReady();
    messaging.drainAndStop(Duration.ofMinutes(5));
    var inboxes = messaging.finalInboxes();
    messaging.sends().writeTo(records.resolve(tag + "-sends.jsonl"));
    messaging.reads().writeTo(records.resolve(tag + "-reads.jsonl"));

    List<Anomaly> anomalies =
        new ArrayList<>(
            MessageChecker.check(messaging.sends().ops(), messaging.reads().ops(), inboxes));
    client
        .notProblemDetails()
        .forEach(e -> anomalies.add(new Anomaly(Anomaly.Kind.OTHER, "not Problem Details: " + e)));
    long recovery =
        Recovery.longest(
            faults,
            List.of(
                Recovery.Signal.of("send", messaging.sends(), "send"),
                new Recovery.Signal("delivery", t -> firstDeliveryAfter(messaging, t), t -> true)));
    return new Row(
        name,
        messaging.sends().size() + messaging.reads().size(),
        faults.size(),
        anomalies,
        recovery);
  }

  /** When a reader first got a message whose first send was begun after the moment. */
  static long firstDeliveryAfter(Messaging messaging, long nanos) {
    Map<String, Long> firstAttempt = new HashMap<>();
    for (Op<Messaging.Send> op : messaging.sends().ops()) {
      Messaging.Send send = op.value();
      firstAttempt.merge(
          send.team() + "|m:" + send.from() + ":" + send.n(), op.invokedNanos(), Math::min);
    }
    long first = Long.MAX_VALUE;
    for (Op<Messaging.Read> op : messaging.reads().ops()) {
      if (op.outcome() != Outcome.OK || op.completedNanos() >= first) {
        continue;
      }
      for (Messaging.Item item : op.value().items()) {
        Long sent = firstAttempt.get(op.value().team() + "|" + item.text());
        if (sent != null && sent >= nanos) {
          first = op.completedNanos();
          break;
        }
      }
    }
    return first;
  }
}
