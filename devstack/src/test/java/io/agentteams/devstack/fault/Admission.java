package io.agentteams.devstack.fault;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The owner asks members for work (one request at a time per member, retried with its idempotency
 * key when the outcome is unknown) and a scripted worker per agent holds its job stream through the
 * gateway, reconnecting whenever it is cut: it reports {@code started}, works a moment, and reports
 * {@code completed}; a job it already ran is answered again, never run twice.
 */
final class Admission {

  /** A request: for whom, its idempotency key, and the job the scheduler made of it. */
  record Request(String team, String member, String key, int n, @Nullable String jobId) {}

  /**
   * What a worker saw or said about a job: an {@code offer} (with whether it was to reconcile), a
   * {@code started} or a {@code completed} report.
   */
  record Report(String agent, String jobId, String member, String lease, boolean reconcile) {}

  private final Client client;
  private final List<Team> teams;
  private final int requestsPerMember;
  private final Duration work;
  private final Duration pace;
  private final History<Request> requests = new History<>();
  private final History<Report> reports = new History<>();
  private final AtomicInteger requestersRunning = new AtomicInteger();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final Set<String> ran = ConcurrentHashMap.newKeySet();
  private final Map<String, Stream<String>> streams = new ConcurrentHashMap<>();
  private final ExecutorService jobRuns = Executors.newCachedThreadPool();

  /**
   * @param requestsPerMember how many requests the owner sends each member, one after another
   * @param work how long the scripted agent works on a job
   * @param pace how long the owner waits between two requests to one member
   */
  Admission(Client client, List<Team> teams, int requestsPerMember, Duration work, Duration pace) {
    this.client = client;
    this.teams = List.copyOf(teams);
    this.requestsPerMember = requestsPerMember;
    this.work = work;
    this.pace = pace;
  }

  History<Request> requests() {
    return requests;
  }

  History<Report> reports() {
    return reports;
  }

  void start() {
    for (Team team : teams) {
      for (String member : team.names()) {
        String agent = team.agents().get(member);
        String workerToken =
            Client.must(client.post("/api/v1/agents/" + agent + "/tokens", team.owner(), Map.of()))
                .get("access_token")
                .asString();
        threads.add(thread("worker-" + agent, () -> work(agent, workerToken)));
        requestersRunning.incrementAndGet();
        threads.add(thread("request-" + member, () -> requestAll(team, member)));
      }
    }
    threads.forEach(Thread::start);
  }

  private Thread thread(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  private void requestAll(Team team, String member) {
    try {
      for (int n = 1; n <= requestsPerMember && !stopping.get(); n++) {
        String key = team.id().substring(0, 8) + "-" + member + "-" + n;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("recipients", List.of(member));
        body.put("text", "job " + n + " for " + member);
        body.put("idempotency_key", key);
        long giveUp = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!stopping.get()) {
          long invoked = System.nanoTime();
          Client.Reply reply =
              client.post("/api/v1/teams/" + team.id() + "/requests", team.owner(), body);
          String jobId = reply.ok() ? reply.json().get("jobs").get(0).get("id").asString() : null;
          requests.record(
              "request-" + member,
              "request",
              new Request(team.id(), member, key, n, jobId),
              reply.outcome(),
              invoked,
              System.nanoTime(),
              reply.detail());
          if (reply.outcome() != Outcome.INFO || System.nanoTime() > giveUp) {
            break;
          }
          Pause.backOff();
        }
        LockSupport.parkNanos(pace.toNanos());
      }
    } finally {
      requestersRunning.decrementAndGet();
    }
  }

  private void work(String agent, String workerToken) {
    while (!stopping.get()) {
      HttpRequest request =
          HttpRequest.newBuilder(
                  URI.create(client.base() + "/api/v1/agents/" + agent + "/jobs/stream"))
              .header("Authorization", "Bearer " + workerToken)
              .header("Accept", "text/event-stream")
              .GET()
              .build();
      try {
        HttpResponse<Stream<String>> response =
            client.http().send(request, HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() != 200) {
          response.body().close();
          Pause.backOff();
          continue;
        }
        streams.put(agent, response.body());
        String event = null;
        StringBuilder data = new StringBuilder();
        Iterator<String> lines = response.body().iterator();
        while (lines.hasNext() && !stopping.get()) {
          String line = lines.next();
          if (line.isEmpty()) {
            if ("job".equals(event) && data.length() > 0) {
              JsonNode offer = Client.JSON.readTree(data.toString());
              jobRuns.execute(() -> handle(agent, workerToken, offer));
            }
            event = null;
            data.setLength(0);
          } else if (line.startsWith("event:")) {
            event = line.substring(6).trim();
          } else if (line.startsWith("data:")) {
            data.append(line.substring(5).trim());
          }
        }
      } catch (IOException | RuntimeException cut) {
        // The stream was cut (a replica died, the gateway restarted): reconnect.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } finally {
        streams.remove(agent);
      }
      if (!stopping.get()) {
        Pause.backOff();
      }
    }
  }

  private void handle(String agent, String workerToken, JsonNode offer) {
    String jobId = offer.get("job_id").asString();
    String lease = offer.get("lease_token").asString();
    boolean reconcile = offer.get("reconcile").asBoolean();
    String member = offer.get("member").asString();
    long received = System.nanoTime();
    Report report = new Report(agent, jobId, member, lease, reconcile);
    reports.record("worker-" + agent, "offer", report, Outcome.OK, received, received, "");
    if (ran.add(jobId)) {
      if (report(agent, workerToken, report, "started", Map.of()) != Outcome.OK) {
        return;
      }
      LockSupport.parkNanos(work.toNanos());
    }
    report(agent, workerToken, report, "completed", Map.of("answer", "done " + jobId));
  }

  private Outcome report(
      String agent, String workerToken, Report report, String type, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>(extra);
    body.put("type", type);
    body.put("lease_token", report.lease());
    long giveUp = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      long invoked = System.nanoTime();
      Client.Reply reply =
          client.post("/api/v1/jobs/" + report.jobId() + "/events", workerToken, body);
      reports.record(
          "worker-" + agent,
          type,
          report,
          reply.outcome(),
          invoked,
          System.nanoTime(),
          reply.detail());
      if (reply.outcome() != Outcome.INFO || System.nanoTime() > giveUp) {
        return reply.outcome();
      }
      Pause.backOff();
    }
  }

  boolean requestersDone() {
    return requestersRunning.get() == 0;
  }

  /** Every acknowledged job's state as the scheduler reports it now. */
  Map<String, String> finalStates() {
    Map<String, String> states = new LinkedHashMap<>();
    Map<String, String> owners = new LinkedHashMap<>();
    teams.forEach(team -> owners.put(team.id(), team.owner()));
    for (History.Op<Request> op : requests.ops()) {
      if (op.outcome() != Outcome.OK || states.containsKey(op.value().jobId())) {
        continue;
      }
      Client.Reply reply =
          client.get("/api/v1/jobs/" + op.value().jobId(), owners.get(op.value().team()));
      states.put(
          op.value().jobId(),
          reply.ok() ? reply.json().get("state").asString() : "absent (" + reply.status() + ")");
    }
    return states;
  }

  /** Whether every acknowledged job has finished, as the scheduler says. */
  boolean allFinished() {
    return finalStates().values().stream().allMatch("completed"::equals);
  }

  void stop() {
    stopping.set(true);
    streams.values().forEach(Stream::close);
    jobRuns.shutdownNow();
    try {
      jobRuns.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
