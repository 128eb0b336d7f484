package io.agentteams.sdk;

import io.agentteams.sdk.agents.Agents;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.internal.Json;
import io.agentteams.sdk.jobs.Jobs;
import io.agentteams.sdk.messages.Mailbox;
import io.agentteams.sdk.state.PublicState;
import io.agentteams.sdk.streams.Streams;
import io.agentteams.sdk.tasks.TaskBoard;
import io.agentteams.sdk.teams.Teams;
import io.agentteams.sdk.tokens.Tokens;
import io.agentteams.sdk.tokens.WorkerTokens;
import io.agentteams.sdk.tools.MemberTools;
import io.agentteams.sdk.tools.ToolCatalog;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the Agent Teams public API through its gateway. What the client may do is what its
 * token may do: an owner's token manages agents, teams, tokens and jobs; a member's token acts as
 * that member (see {@link #memberTools}); a worker's token runs an agent's jobs (see {@link
 * #worker}). Every failed call throws a subclass of {@link
 * io.agentteams.sdk.problem.AgentTeamsException}: the API's refusals carry their Problem Details.
 *
 * <pre>{@code
 * AgentTeamsClient owner = AgentTeamsClient.builder(URI.create("http://localhost:8080"))
 *     .token(TokenSupplier.of(ownerToken))
 *     .build();
 * Team team = owner.teams().create(new NewTeam("Launch", "Write the launch notes",
 *     List.of(NewMember.lead("lead", "planner"), NewMember.of("writer", "scribe"))));
 * }</pre>
 *
 * <p>Thread-safe; one client per token and gateway is enough.
 */
public final class AgentTeamsClient {

  private final HttpTransport http;

  private AgentTeamsClient(HttpTransport http) {
    this.http = http;
  }

  /** Starts a client of the gateway at {@code gateway} (e.g. {@code http://localhost:8080}). */
  public static Builder builder(URI gateway) {
    return new Builder(gateway);
  }

  /** The agent catalog (owner). */
  public Agents agents() {
    return new Agents(http);
  }

  /** Teams (owner; members read their own team). */
  public Teams teams() {
    return new Teams(http);
  }

  /** Tokens for workers and members (owner). */
  public Tokens tokens() {
    return new Tokens(http);
  }

  /** Requests, answers, cancellation and activity (owner; a member's token hands off). */
  public Jobs jobs() {
    return new Jobs(http);
  }

  /** A team's task board. */
  public TaskBoard tasks() {
    return new TaskBoard(http);
  }

  /** A team's public state. */
  public PublicState state() {
    return new PublicState(http);
  }

  /** A team's mailbox, history and results. */
  public Mailbox mailbox() {
    return new Mailbox(http);
  }

  /** Event streams and {@code wait}. */
  public Streams streams() {
    return new Streams(http);
  }

  /** The member tools and their JSON Schemas. */
  public ToolCatalog toolCatalog() {
    return ToolCatalog.fetch(http);
  }

  /** The member tools of one member, acting with the member token {@code memberToken}. */
  public MemberTools memberTools(UUID teamId, TokenSupplier memberToken) {
    return new MemberTools(teamId, http.withTokens(memberToken));
  }

  /**
   * An agent worker that runs the agent's jobs with {@code handler}, using this client's gateway
   * and {@code workerToken}; configure it on the returned builder and start it.
   */
  public AgentWorker.Builder worker(String agentId, TokenSupplier workerToken, JobHandler handler) {
    return AgentWorker.builder(http.withTokens(workerToken), agentId, handler);
  }

  /**
   * A worker token of the agent, minted with this (owner's) client and renewed by the supplier
   * before each expiry, for a worker that runs longer than a token lives.
   */
  public TokenSupplier workerTokens(String agentId) {
    return WorkerTokens.from(http, agentId, tokens().worker(agentId), Clock.systemUTC());
  }

  /** The same gateway with another token. */
  public AgentTeamsClient withToken(TokenSupplier token) {
    return new AgentTeamsClient(http.withTokens(token));
  }

  /** The mapper the client reads and writes the API's JSON with. */
  public JsonMapper json() {
    return http.json();
  }

  /** The gateway's address. */
  public URI gateway() {
    return http.base();
  }

  /** Configures a client. */
  public static final class Builder {
    private final URI gateway;
    private TokenSupplier token = TokenSupplier.anonymous();
    private Duration timeout = Duration.ofSeconds(30);
    private @Nullable HttpClient http;

    private Builder(URI gateway) {
      this.gateway = Objects.requireNonNull(gateway);
    }

    /** Where each call's bearer token comes from. */
    public Builder token(TokenSupplier token) {
      this.token = Objects.requireNonNull(token);
      return this;
    }

    /** The longest a call waits for its answer (default 30 s). */
    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout);
      return this;
    }

    /** The JDK HTTP client to use (default: a new one speaking HTTP/1.1). */
    public Builder httpClient(HttpClient http) {
      this.http = Objects.requireNonNull(http);
      return this;
    }

    public AgentTeamsClient build() {
      HttpClient client =
          http != null
              ? http
              : HttpClient.newBuilder()
                  .version(HttpClient.Version.HTTP_1_1)
                  .connectTimeout(Duration.ofSeconds(10))
                  .build();
      return new AgentTeamsClient(
          new HttpTransport(gateway, client, token, Json.mapper(), timeout));
    }
  }
}
