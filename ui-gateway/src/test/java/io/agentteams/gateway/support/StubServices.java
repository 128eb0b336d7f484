package io.agentteams.gateway.support;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.InternalAudiences;
import io.agentteams.platform.testidentity.TestIdentity;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Four stand-ins for the services behind the gateway, on loopback. Each verifies the internal token
 * the way a real service does and records who called what; team-service knows one team and one
 * agent of a given owner.
 */
public final class StubServices implements AutoCloseable {

  /** One request a stub received. */
  public record Hit(
      String service, String method, String path, @Nullable Caller caller, @Nullable String token) {

    public Hit(String service, String method, String path, @Nullable Caller caller) {
      this(service, method, path, caller, null);
    }
  }

  /** Each stub's audience, as the real service's application name. */
  public static final Map<String, String> AUDIENCES =
      Map.of(
          "team", InternalAudiences.TEAM,
          "mailbox", InternalAudiences.MAILBOX,
          "task-board", InternalAudiences.TASK_BOARD,
          "scheduler", InternalAudiences.SCHEDULER);

  public static final String OWNER = "alice";
  public static final UUID TEAM = UUID.fromString("6f0e3c1a-1111-4222-8333-944445555666");
  public static final String MEMBER = "writer";
  public static final String AGENT = "agent-1";

  /** A running job of {@link #TEAM}, which the scheduler shows its owner. */
  public static final UUID JOB = UUID.fromString("6f0e3c1a-2222-4222-8333-944445555666");

  /** The number of {@link #JOB}'s current lease (its second offer). */
  public static final int LEASE = 2;

  /** A job of {@link #TEAM}'s {@link #MEMBER} that has ended (interrupted). */
  public static final UUID ENDED_JOB = UUID.fromString("6f0e3c1a-4444-4222-8333-944445555666");

  /** A job of another team of {@link #OWNER}, which the scheduler shows its owner too. */
  public static final UUID OTHER_TEAMS_JOB =
      UUID.fromString("6f0e3c1a-3333-4222-8333-944445555666");

  private final Map<String, CallerTokens> internal = new ConcurrentHashMap<>();
  private final boolean anyTeamOfOwner;
  private final Map<String, DisposableServer> servers = new ConcurrentHashMap<>();
  private final List<Hit> hits = new CopyOnWriteArrayList<>();

  public StubServices() {
    this(false);
  }

  /**
   * @param anyTeamOfOwner whether team-service treats every team id as one of {@link #OWNER}'s (for
   *     load tests with many teams)
   */
  public StubServices(boolean anyTeamOfOwner) {
    this.anyTeamOfOwner = anyTeamOfOwner;
    for (String service : List.of("team", "mailbox", "task-board", "scheduler")) {
      // Like every service, each stub holds only the gateway's public keys and accepts tokens for
      // itself only.
      internal.put(service, TestIdentity.internalVerifier(AUDIENCES.get(service)));
      servers.put(
          service,
          HttpServer.create()
              .host("127.0.0.1")
              .port(0)
              .handle((request, response) -> answer(service, request, response))
              .bindNow());
    }
  }

  public String url(String service) {
    return "http://127.0.0.1:" + servers.get(service).port();
  }

  public List<Hit> hits() {
    return List.copyOf(hits);
  }

  public void clear() {
    hits.clear();
  }

  private Mono<Void> answer(
      String service, HttpServerRequest request, HttpServerResponse response) {
    if (request.uri().equals("/v3/api-docs")) {
      // Like a service: its API description is public, in the shape springdoc writes.
      String doc =
          ("{\"openapi\":\"3.1.0\",\"paths\":{\"/api/v1/%s/things/{id}\":{\"get\":{\"responses\":"
                  + "{\"200\":{\"content\":{\"application/json\":{\"schema\":{\"$ref\":\"#/components/schemas/Thing\"}}}},"
                  + "\"404\":{\"content\":{\"application/problem+json\":{\"schema\":{\"$ref\":\"#/components/schemas/Problem\"}}}}}}},"
                  + "\"/api/internal/v1/%s/recent\":{\"get\":{}},"
                  + "\"/actuator/health\":{\"get\":{}}},"
                  + "\"components\":{\"schemas\":{\"Thing\":{\"type\":\"object\"},\"Problem\":{\"type\":\"object\"}}}}")
              .formatted(service, service);
      return response
          .header("Content-Type", "application/json")
          .sendString(Mono.just(doc), StandardCharsets.UTF_8)
          .then();
    }
    Caller caller = null;
    String authorization = request.requestHeaders().get("Authorization");
    String token = authorization == null ? null : authorization.replaceFirst("^Bearer ", "");
    try {
      caller = internal.get(service).verify(token);
    } catch (RuntimeException e) {
      hits.add(new Hit(service, request.method().name(), request.uri(), null));
      return response.status(401).send();
    }
    if (!anyTeamOfOwner) {
      hits.add(new Hit(service, request.method().name(), request.uri(), caller, token));
    }
    String path = request.uri().replaceFirst("\\?.*$", "");
    String body;
    int status = 200;
    boolean knownTeam =
        path.equals("/api/v1/teams/" + TEAM)
            || (anyTeamOfOwner && path.matches("/api/v1/teams/[0-9a-f-]{36}"));
    if (service.equals("team") && knownTeam) {
      if (!caller.ownerId().equals(OWNER)) {
        status = 404;
        body = "{}";
      } else {
        body =
            "{\"id\":\""
                + path.substring(path.lastIndexOf('/') + 1)
                // Enough of a team for the console to read it too.
                + "\",\"name\":\"Stub team\",\"goal\":\"Stub goal\",\"status\":\"ready\","
                + "\"revision\":1,\"created_at\":\"2026-01-01T00:00:00Z\","
                + "\"members\":[{\"name\":\""
                + MEMBER
                + "\",\"lead\":true}]}";
      }
    } else if (service.equals("team") && path.startsWith("/api/v1/agents/")) {
      boolean ours = path.equals("/api/v1/agents/" + AGENT) && caller.ownerId().equals(OWNER);
      status = ours ? 200 : 404;
      body = ours ? "{\"id\":\"" + AGENT + "\"}" : "{}";
    } else if (service.equals("scheduler")
        && path.matches("/api/internal/v1/jobs/[0-9a-f-]{36}/liveness")) {
      // The scheduler answers for the member's own job only, live under its current lease only.
      UUID job = UUID.fromString(path.split("/")[5]);
      boolean known =
          (job.equals(JOB) || job.equals(ENDED_JOB))
              && caller instanceof Caller.Member member
              && job.equals(member.jobId())
              && member.teamId().equals(TEAM)
              && member.member().equals(MEMBER);
      status = known ? 200 : 404;
      body =
          known
              ? "{\"job_id\":\""
                  + job
                  + "\",\"live\":"
                  + (job.equals(JOB)
                      && Integer.valueOf(LEASE).equals(((Caller.Member) caller).lease()))
                  + "}"
              : "{\"code\":\"job-not-found\"}";
    } else if (service.equals("scheduler") && path.matches("/api/v1/jobs/[0-9a-f-]{36}")) {
      UUID job = UUID.fromString(path.substring(path.lastIndexOf('/') + 1));
      UUID team = job.equals(JOB) ? TEAM : job.equals(OTHER_TEAMS_JOB) ? UUID.randomUUID() : null;
      if (team == null || !caller.ownerId().equals(OWNER)) {
        status = 404;
        body = "{\"code\":\"job-not-found\",\"detail\":\"job " + job + " does not exist\"}";
      } else {
        body =
            "{\"id\":\""
                + job
                + "\",\"team_id\":\""
                + team
                + "\",\"state\":\"running\",\"revision\":3}";
      }
    } else {
      body = "{\"service\":\"" + service + "\"}";
    }
    return response
        .status(status)
        .header("Content-Type", "application/json")
        .sendString(Mono.just(body), StandardCharsets.UTF_8)
        .then();
  }

  @Override
  public void close() {
    servers.values().forEach(DisposableServer::disposeNow);
  }
}
