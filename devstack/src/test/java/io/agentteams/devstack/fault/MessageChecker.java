package io.agentteams.devstack.fault;

import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.History.Op;
import io.agentteams.devstack.fault.Messaging.Inbox;
import io.agentteams.devstack.fault.Messaging.Item;
import io.agentteams.devstack.fault.Messaging.Read;
import io.agentteams.devstack.fault.Messaging.Send;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the record of sends and reads and the final inboxes, and finds what the mailbox promises
 * never happens: an acknowledged message missing from an inbox, a stored message no reader ever
 * got, a message given again to a read of what is new after its reader had received and
 * acknowledged it, a message stored twice for one client message id, and a sender's messages in
 * another order than sent.
 *
 * <p>A read of what is new leases what it returns; the reader acknowledges it by naming the lease
 * in its next read. A message returned again because the answer holding it never arrived (the read
 * is not among the answered ones) or because its lease ran out before the acknowledgement arrived
 * is the at-least-once promise kept, not a duplicate. A read that names no {@code ack} acknowledges
 * every earlier read, so for such reads any second answer is a duplicate.
 */
final class MessageChecker {

  private MessageChecker() {}

  static List<Anomaly> check(
      List<Op<Send>> sends, List<Op<Read>> reads, Map<Inbox, List<Item>> finalInboxes) {
    List<Anomaly> anomalies = new ArrayList<>();
    Map<String, Set<String>> rosters = new HashMap<>();
    finalInboxes.keySet().forEach(i -> rosters.computeIfAbsent(i.team(), t -> new HashSet<>()));
    finalInboxes.keySet().forEach(i -> rosters.get(i.team()).add(i.member()));

    // One stored message per client message id, however many attempts it took.
    Map<String, Op<Send>> acknowledged = new LinkedHashMap<>();
    Map<String, Set<String>> idsPerClientId = new HashMap<>();
    Set<String> attemptedTexts = new HashSet<>();
    for (Op<Send> op : sends) {
      Send send = op.value();
      attemptedTexts.add(send.team() + "|m:" + send.from() + ":" + send.n());
      if (op.outcome() == Outcome.OK) {
        String key = send.team() + "|" + send.clientMessageId();
        acknowledged.putIfAbsent(key, op);
        idsPerClientId.computeIfAbsent(key, k -> new HashSet<>()).add(send.messageId());
      }
    }
    idsPerClientId.forEach(
        (key, ids) -> {
          if (ids.size() > 1) {
            anomalies.add(
                Anomaly.of(
                    Kind.DUPLICATED,
                    "client message id %s was stored as %d messages %s",
                    key,
                    ids.size(),
                    ids));
          }
        });

    // Acknowledged messages are in every intended recipient's inbox.
    Map<Inbox, Map<String, Item>> stored = new HashMap<>();
    finalInboxes.forEach(
        (inbox, items) -> {
          Map<String, Item> byId = new HashMap<>();
          for (Item item : items) {
            if (byId.put(item.messageId(), item) != null) {
              anomalies.add(
                  Anomaly.of(
                      Kind.DUPLICATED,
                      "message %s is twice in the inbox of %s",
                      item.messageId(),
                      inbox.member()));
            }
            if (!attemptedTexts.contains(inbox.team() + "|" + item.text())) {
              anomalies.add(
                  Anomaly.of(
                      Kind.OTHER,
                      "inbox of %s holds %s (\"%s\"), which no client sent",
                      inbox.member(),
                      item.messageId(),
                      item.text()));
            }
          }
          stored.put(inbox, byId);
        });
    for (Op<Send> op : acknowledged.values()) {
      Send send = op.value();
      for (String recipient : intended(send, rosters.get(send.team()))) {
        Map<String, Item> inbox = stored.get(new Inbox(send.team(), recipient));
        if (inbox == null || !inbox.containsKey(send.messageId())) {
          anomalies.add(
              Anomaly.of(
                  Kind.ACKNOWLEDGED_MISSING,
                  "send #%d by %s (%s, message %s) was acknowledged but is not in the inbox of %s",
                  op.index(),
                  op.process(),
                  send.clientMessageId(),
                  send.messageId(),
                  recipient));
        }
      }
    }

    // Every stored message reached a reader; "what is new" never gave one again once its reader
    // had it and acknowledged it.
    Map<String, Long> acknowledgedAt = new HashMap<>();
    for (Op<Read> op : reads) {
      String ack = op.value().ack();
      if (op.outcome() == Outcome.OK && ack != null && !ack.equals("none")) {
        acknowledgedAt.merge(ack, op.completedNanos(), Math::min);
      }
    }
    Map<Inbox, Map<String, List<Op<Read>>>> given = new HashMap<>();
    Map<Inbox, Set<String>> seen = new HashMap<>();
    for (Op<Read> op : reads) {
      if (op.outcome() != Outcome.OK) {
        continue;
      }
      Read read = op.value();
      Inbox inbox = new Inbox(read.team(), read.member());
      for (Item item : read.items()) {
        seen.computeIfAbsent(inbox, i -> new HashSet<>()).add(item.messageId());
        if (read.after() == null) {
          given
              .computeIfAbsent(inbox, i -> new HashMap<>())
              .computeIfAbsent(item.messageId(), id -> new ArrayList<>())
              .add(op);
        }
      }
    }
    given.forEach(
        (inbox, byId) ->
            byId.forEach(
                (id, readOps) -> {
                  for (Op<Read> later : readOps) {
                    for (Op<Read> earlier : readOps) {
                      if (earlier != later
                          && earlier.invokedNanos() < later.invokedNanos()
                          && acknowledgedBefore(earlier, later, acknowledgedAt)) {
                        anomalies.add(
                            Anomaly.of(
                                Kind.DUPLICATED,
                                "message %s was given to %s by read #%d after read #%d had"
                                    + " returned it and was acknowledged",
                                id,
                                inbox.member(),
                                later.index(),
                                earlier.index()));
                        return;
                      }
                    }
                  }
                }));
    finalInboxes.forEach(
        (inbox, items) -> {
          Set<String> got = seen.getOrDefault(inbox, Set.of());
          for (Item item : items) {
            if (!got.contains(item.messageId())) {
              anomalies.add(
                  Anomaly.of(
                      Kind.LOST,
                      "message %s (\"%s\", position %d) is in the inbox of %s but no read got it",
                      item.messageId(),
                      item.text(),
                      item.sequence(),
                      inbox.member()));
            }
          }
        });

    // A sender's messages keep their order in each inbox.
    finalInboxes.forEach(
        (inbox, items) -> {
          Map<String, Item> lastBySender = new HashMap<>();
          for (Item item : items) {
            Item before = lastBySender.get(item.sender());
            if (before != null && number(before) >= number(item)) {
              anomalies.add(
                  Anomaly.of(
                      Kind.OUT_OF_ORDER,
                      "in the inbox of %s, \"%s\" (position %d) comes after \"%s\" (position %d)",
                      inbox.member(),
                      item.text(),
                      item.sequence(),
                      before.text(),
                      before.sequence()));
            }
            lastBySender.put(item.sender(), item);
          }
        });
    return anomalies;
  }

  /**
   * Whether the reader had acknowledged {@code earlier}'s answer before it began {@code later}: by
   * a read naming its lease that was answered before, or, for reads that name no {@code ack} (each
   * acknowledges everything earlier), by {@code later} itself.
   */
  private static boolean acknowledgedBefore(
      Op<Read> earlier, Op<Read> later, Map<String, Long> acknowledgedAt) {
    if (later.value().ack() == null) {
      return true;
    }
    String lease = earlier.value().lease();
    Long at = lease == null ? null : acknowledgedAt.get(lease);
    return at != null && at < later.invokedNanos();
  }

  private static List<String> intended(Send send, Set<String> roster) {
    if (!send.broadcast()) {
      return List.of(send.to());
    }
    return roster.stream().filter(member -> !member.equals(send.from())).sorted().toList();
  }

  private static int number(Item item) {
    String text = item.text();
    try {
      return Integer.parseInt(text.substring(text.lastIndexOf(':') + 1));
    } catch (RuntimeException notOurs) {
      return -1;
    }
  }
}
