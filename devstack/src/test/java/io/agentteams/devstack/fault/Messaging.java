package io.agentteams.devstack.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Members send directed messages and broadcasts, one at a time each, retrying an unknown outcome
 * with the same client message id; every member reads its inbox as it fills, each read
 * acknowledging the lease of the reader's previous answer ({@code ack}). A read that went
 * unanswered is repeated with the same {@code ack}: what the lost answer held stays leased until
 * its lease runs out and then comes back, so a reader finishes only once nothing of its inbox is
 * leased.
 */
final class Messaging {

  /** A send: the message's place in its sender's series, and what the mailbox said it stored. */
  record Send(
      String team,
      String from,
      @Nullable String to,
      int n,
      String clientMessageId,
      @Nullable String messageId,
      List<String> recipients) {

    boolean broadcast() {
      return to == null;
    }
  }

  /** A message in an inbox as a reader got it. */
  record Item(String messageId, long sequence, String sender, String text) {}

  /**
   * A read: whose inbox, from where ({@code after}, null for "what is new"), the lease it
   * acknowledged ({@code ack}: a lease id, {@code none}, or null for a read that acknowledges every
   * earlier one), the lease of what came, and what came.
   */
  record Read(
      String team,
      String member,
      @Nullable Long after,
      @Nullable String ack,
      @Nullable String lease,
      List<Item> items) {}

  /** A member's inbox. */
  record Inbox(String team, String member) {}

  private final Client client;
  private final List<Team> teams;
  private final int messagesPerSender;
  private final int broadcastEvery;
  private final int readersPerMember;
  private final History<Send> sends = new History<>();
  private final History<Read> reads = new History<>();
  private final AtomicInteger sendersRunning = new AtomicInteger();
  private final AtomicBoolean stopReading = new AtomicBoolean();
  private final AtomicBoolean stopSending = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger sent = new AtomicInteger();

  /**
   * @param messagesPerSender how many messages each member sends
   * @param broadcastEvery every how many-th message of a sender is a broadcast (0 for none)
   * @param readersPerMember concurrent readers of each inbox
   */
  Messaging(
      Client client,
      List<Team> teams,
      int messagesPerSender,
      int broadcastEvery,
      int readersPerMember) {
    this.client = client;
    this.teams = List.copyOf(teams);
    this.messagesPerSender = messagesPerSender;
    this.broadcastEvery = broadcastEvery;
    this.readersPerMember = readersPerMember;
  }

  History<Send> sends() {
    return sends;
  }

  History<Read> reads() {
    return reads;
  }

  /** How many sends were acknowledged so far. */
  int acknowledged() {
    return sent.get();
  }

  int planned() {
    return (int)
        Math.min(
            Integer.MAX_VALUE,
            (long) teams.stream().mapToInt(t -> t.members().size()).sum() * messagesPerSender);
  }

  void start() {
    for (Team team : teams) {
      List<String> names = team.names();
      for (int i = 0; i < names.size(); i++) {
        String member = names.get(i);
        int index = i;
        sendersRunning.incrementAndGet();
        threads.add(thread("send-" + member, () -> sendAll(team, names, index)));
        for (int r = 0; r < readersPerMember; r++) {
          threads.add(thread("read-" + member + "-" + r, () -> readUntilStopped(team, member)));
        }
      }
    }
    threads.forEach(Thread::start);
  }

  private Thread thread(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  private void sendAll(Team team, List<String> names, int index) {
    String from = names.get(index);
    String token = team.members().get(from);
    try {
      for (int n = 1; n <= messagesPerSender && !stopSending.get(); n++) {
        boolean broadcast = broadcastEvery > 0 && n % broadcastEvery == 0;
        String to = broadcast ? null : names.get((index + n) % names.size());
        if (!broadcast && to.equals(from)) {
          to = names.get((index + n + 1) % names.size());
        }
        send(team, from, token, to, n);
      }
    } finally {
      sendersRunning.decrementAndGet();
    }
  }

  private void send(Team team, String from, String token, @Nullable String to, int n) {
    String clientMessageId = from + "-" + n;
    Map<String, Object> body = new LinkedHashMap<>();
    if (to == null) {
      body.put("broadcast", true);
    } else {
      body.put("to", to);
    }
    body.put("text", "m:" + from + ":" + n);
    body.put("client_message_id", clientMessageId);
    long giveUp = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      long invoked = System.nanoTime();
      Client.Reply reply = client.post("/api/v1/teams/" + team.id() + "/messages", token, body);
      String messageId = null;
      List<String> recipients = List.of();
      if (reply.ok()) {
        JsonNode answer = reply.json();
        messageId = answer.get("message_id").asString();
        recipients = new ArrayList<>();
        for (JsonNode recipient : answer.get("recipients")) {
          recipients.add(recipient.get("member").asString());
        }
      }
      sends.record(
          "send-" + from,
          "send",
          new Send(team.id(), from, to, n, clientMessageId, messageId, recipients),
          reply.outcome(),
          invoked,
          System.nanoTime(),
          reply.detail());
      if (reply.outcome() == Outcome.OK) {
        sent.incrementAndGet();
        return;
      }
      if (reply.outcome() == Outcome.FAIL || System.nanoTime() > giveUp) {
        return;
      }
      Pause.backOff();
    }
  }

  private void readUntilStopped(Team team, String member) {
    String token = team.members().get(member);
    String ack = "none";
    while (true) {
      boolean finishing = stopReading.get();
      long invoked = System.nanoTime();
      Client.Reply reply =
          client.get("/api/v1/teams/" + team.id() + "/inbox?limit=20&ack=" + ack, token);
      List<Item> items = List.of();
      String lease = null;
      long leased = 0;
      if (reply.ok()) {
        JsonNode page = reply.json();
        items = items(page);
        lease = page.path("lease_id").isString() ? page.get("lease_id").asString() : null;
        leased = page.path("leased").asLong(0);
      }
      reads.record(
          "read-" + member,
          "read",
          new Read(team.id(), member, null, ack, lease, items),
          reply.outcome(),
          invoked,
          System.nanoTime(),
          reply.detail());
      if (!reply.ok()) {
        // Repeated with the same ack: what a lost answer held comes back once its lease runs out.
        Pause.backOff();
        continue;
      }
      ack = lease == null ? "none" : lease;
      if (items.isEmpty()) {
        if (finishing && sendersRunning.get() == 0 && leased == 0) {
          return;
        }
        Pause.backOff();
      }
    }
  }

  private static List<Item> items(JsonNode page) {
    List<Item> items = new ArrayList<>();
    for (JsonNode message : page.get("messages")) {
      items.add(
          new Item(
              message.get("message_id").asString(),
              message.get("sequence").asLong(),
              message.get("sender").asString(),
              message.get("text").asString()));
    }
    return items;
  }

  /** Stops the senders after the message each is sending (for a workload that runs until told). */
  void stopSending() {
    stopSending.set(true);
  }

  /** Whether every sender is done (acknowledged, refused or given up on each message). */
  boolean sendersDone() {
    return sendersRunning.get() == 0;
  }

  /**
   * Lets the readers finish: each stops once the senders are done and a read of its inbox comes
   * back empty. Waits for them.
   */
  void drainAndStop(Duration timeout) {
    stopReading.set(true);
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread thread : threads) {
      try {
        thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      if (thread.isAlive()) {
        throw new IllegalStateException(thread.getName() + " did not finish within " + timeout);
      }
    }
  }

  /** Every inbox as the mailbox holds it now, read from its start ({@code after=0}, paged). */
  Map<Inbox, List<Item>> finalInboxes() {
    Map<Inbox, List<Item>> inboxes = new LinkedHashMap<>();
    for (Team team : teams) {
      for (String member : team.names()) {
        List<Item> all = new ArrayList<>();
        long after = 0;
        while (true) {
          JsonNode page =
              Client.must(
                  client.get(
                      "/api/v1/teams/" + team.id() + "/inbox?limit=20&after=" + after,
                      team.members().get(member)));
          List<Item> items = items(page);
          if (items.isEmpty()) {
            break;
          }
          all.addAll(items);
          after = items.get(items.size() - 1).sequence();
        }
        inboxes.put(new Inbox(team.id(), member), all);
      }
    }
    return inboxes;
  }
}
