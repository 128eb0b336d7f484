package io.agentteams.devstack.fault;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;

/**
 * Every member of a team edits one shared public-state entry again and again: it reads the entry
 * and updates it with the revision it read (compare-and-set), retrying an unknown outcome with the
 * very same update (an identical retry of the latest update succeeds without a new revision).
 */
final class StateUpdates {

  /** An update: who wrote what over which revision, and the revision the service answered. */
  record Update(String team, String member, String content, long expected, long revision) {}

  private final Client client;
  private final Team team;
  private final History<Update> updates = new History<>();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private long entry;

  StateUpdates(Client client, Team team) {
    this.client = client;
    this.team = team;
  }

  History<Update> updates() {
    return updates;
  }

  void start() {
    String lead = team.members().get(team.names().get(0));
    entry =
        Client.must(
                client.post(
                    "/api/v1/teams/" + team.id() + "/state",
                    lead,
                    Map.of(
                        "request_id", "shared-plan",
                        "kind", "plan",
                        "title", "The plan",
                        "content", "first draft")))
            .get("entry")
            .get("id")
            .asLong();
    for (String member : team.names()) {
      Thread thread = new Thread(() -> edit(member), "state-" + member);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
  }

  private void edit(String member) {
    String token = team.members().get(member);
    int n = 0;
    while (!stopping.get()) {
      Client.Reply read = client.get(path(), token);
      if (!read.ok()) {
        Pause.backOff();
        continue;
      }
      long expected = read.json().get("entry").get("revision").asLong();
      String content = member + " edit " + (++n);
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("expected_revision", expected);
      body.put("content", content);
      while (!stopping.get()) {
        long invoked = System.nanoTime();
        Client.Reply reply = client.put(path(), token, body);
        JsonNode answer = reply.status() == 200 || reply.status() == 409 ? reply.json() : null;
        long revision = answer == null ? -1 : answer.get("entry").get("revision").asLong();
        updates.record(
            "state-" + member,
            "update",
            new Update(team.id(), member, content, expected, revision),
            reply.outcome(),
            invoked,
            System.nanoTime(),
            reply.detail());
        if (reply.outcome() != Outcome.INFO) {
          break;
        }
        Pause.backOff();
      }
    }
  }

  private String path() {
    return "/api/v1/teams/" + team.id() + "/state/" + entry;
  }

  void stop() {
    stopping.set(true);
    for (Thread thread : threads) {
      try {
        thread.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The entry as the service holds it now: its revision and content. */
  Update finalEntry() {
    JsonNode entryNow =
        Client.must(client.get(path(), team.members().get(team.names().get(0)))).get("entry");
    return new Update(
        team.id(), "", entryNow.get("content").asString(), -1, entryNow.get("revision").asLong());
  }
}
