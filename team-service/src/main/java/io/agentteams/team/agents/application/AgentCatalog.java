package io.agentteams.team.agents.application;

import io.agentteams.platform.outbound.OutboundHttp;
import io.agentteams.platform.outbound.OutboundRefused;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.team.agents.AgentProperties;
import io.agentteams.team.agents.domain.Agent;
import io.agentteams.team.agents.domain.AgentDraft;
import io.agentteams.team.agents.domain.AgentId;
import io.agentteams.team.agents.domain.AgentLimits;
import io.agentteams.team.agents.domain.AgentProblems;
import io.agentteams.team.agents.domain.AgentRuntime;
import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.agents.domain.WebhookSecrets;
import io.agentteams.team.agents.persistence.AgentStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/** An owner's agent catalog: register, replace, find, search and delete agents. */
@Service
public class AgentCatalog {

  /**
   * An agent as registered or replaced.
   *
   * @param agent the agent
   * @param newWebhookSecret the signing secret made for it now, shown to the owner this once
   */
  public record Saved(Agent agent, @Nullable String newWebhookSecret) {}

  private final AgentStore agents;
  private final TransactionalOperator transactions;
  private final AgentProperties properties;
  private final AgentLimits limits;
  private final Clock clock;
  private final OutboundHttp outbound;
  private final AgentRuntimes runtimes;
  private final AgentTokens tokens;

  public AgentCatalog(
      AgentStore agents,
      TransactionalOperator transactions,
      AgentProperties properties,
      Clock clock,
      OutboundHttp outbound,
      AgentRuntimes runtimes,
      AgentTokens tokens) {
    this.tokens = tokens;
    this.outbound = outbound;
    this.runtimes = runtimes;
    this.agents = agents;
    this.transactions = transactions;
    this.properties = properties;
    this.limits = properties.limits();
    this.clock = clock;
  }

  /** Registers an agent under the given id, or a generated one when none is given. */
  public Mono<Saved> register(String ownerId, @Nullable String id, AgentDraft draft) {
    return Mono.fromCallable(
            () ->
                Agent.register(
                    new AgentId(id == null ? UUID.randomUUID().toString() : id),
                    ownerId,
                    draft,
                    limits,
                    clock.instant()))
        .flatMap(agent -> reachable(agent.runtime()).thenReturn(agent))
        .flatMap(
            agent ->
                transactions.transactional(insertWithinLimit(agent).flatMap(this::runtimeChanged)));
  }

  /**
   * The agent, once its endpoint passed the outbound guard: a webhook or A2A endpoint on a private,
   * loopback or metadata address (unless the operator allows it) is refused here, with the reason,
   * rather than at its first job.
   */
  private Mono<Void> reachable(AgentRuntime runtime) {
    String endpoint = runtime.endpoint();
    if (endpoint == null) {
      return Mono.empty();
    }
    return outbound
        .vet(endpoint)
        .onErrorMap(
            OutboundRefused.class,
            refused -> AgentProblems.invalidEndpoint(endpoint, refused.reason()))
        .then();
  }

  /** Inserts the agent under its owner's lock, if the catalog has room and the id is free. */
  private Mono<Agent> insertWithinLimit(Agent agent) {
    return agents
        .lockOwner(agent.ownerId())
        .then(agents.count(agent.ownerId()))
        .flatMap(
            count ->
                count >= limits.maxAgentsPerOwner()
                    ? Mono.error(AgentProblems.tooManyAgents(limits.maxAgentsPerOwner(), count + 1))
                    : agents.insert(agent))
        .flatMap(
            inserted ->
                inserted ? Mono.just(agent) : Mono.error(AgentProblems.agentExists(agent.id())));
  }

  /** Replaces the fields of one of the owner's agents. */
  public Mono<Saved> replace(String ownerId, String id, AgentDraft draft) {
    AgentId agentId = existingId(id);
    // The endpoint is vetted (which may resolve its host) before the agent's row is locked.
    Mono<Void> vetted =
        Mono.fromCallable(
                () ->
                    AgentRuntime.of(
                        draft.runtimeKind(), draft.endpoint(), limits.endpointMaxBytes()))
            .flatMap(this::reachable);
    return vetted.then(
        transactions.transactional(
            agents
                .lock(ownerId, agentId)
                .switchIfEmpty(Mono.error(AgentProblems.agentNotFound(id)))
                .map(agent -> agent.replace(draft, limits, clock.instant()))
                .flatMap(agent -> agents.update(agent).thenReturn(agent))
                .flatMap(this::runtimeChanged)));
  }

  /**
   * A new signing secret for one of the owner's webhook agents, shown this once; the previous one
   * is still signed with for the configured overlap.
   */
  public Mono<WebhookSecrets> rotateWebhookSecret(String ownerId, String id) {
    AgentId agentId = existingId(id);
    return transactions.transactional(
        agents
            .lock(ownerId, agentId)
            .switchIfEmpty(Mono.error(AgentProblems.agentNotFound(id)))
            .flatMap(
                agent ->
                    agent.runtime().kind() == RuntimeKind.WEBHOOK
                        ? runtimes.rotate(agent)
                        : Mono.error(
                            AgentProblems.notAWebhookAgent(agent.id(), agent.runtime().kind()))));
  }

  private Mono<Saved> runtimeChanged(Agent agent) {
    return runtimes
        .changed(agent)
        .map(secret -> new Saved(agent, secret))
        .defaultIfEmpty(new Saved(agent, null));
  }

  /**
   * Deletes one of the owner's agents, refused while it is a member of a team that is not deleted
   * (naming up to ten of them). The agent's row is locked, and team creation takes shared locks on
   * the agents it names, so no team can come to name an agent as it goes. Its tokens are revoked in
   * the same transaction, and its deletion is published so the scheduler forgets how to reach it.
   */
  public Mono<Void> delete(String ownerId, String id) {
    AgentId agentId = existingId(id);
    return transactions.transactional(
        agents
            .lock(ownerId, agentId)
            .switchIfEmpty(Mono.error(AgentProblems.agentNotFound(id)))
            .flatMap(
                agent ->
                    agents
                        .liveTeamsWith(ownerId, agentId, 10)
                        .collectList()
                        .flatMap(
                            teams ->
                                teams.isEmpty()
                                    ? tokens
                                        .revokeAgentWithin(ownerId, agentId.value())
                                        .then(runtimes.deleted(agent))
                                        .then(agents.delete(ownerId, agentId))
                                    : Mono.error(AgentProblems.agentInLiveTeams(agentId, teams)))));
  }

  /** One of the owner's agents; another owner's agent is answered as not found. */
  public Mono<Agent> find(String ownerId, String id) {
    return agents
        .find(ownerId, existingId(id))
        .switchIfEmpty(Mono.error(AgentProblems.agentNotFound(id)));
  }

  /**
   * A page of the owner's agents whose name or description contains {@code query} (literally,
   * ignoring case), in name order.
   */
  public Mono<AgentPage> search(
      String ownerId, @Nullable String query, @Nullable Integer limit, @Nullable String cursor) {
    int size = limit == null ? properties.searchDefaultLimit() : limit;
    if (size < 1 || size > properties.searchMaxLimit()) {
      return Mono.error(AgentProblems.invalidLimit(properties.searchMaxLimit()));
    }
    String[] after;
    try {
      after = cursor == null || cursor.isEmpty() ? null : decode(cursor);
    } catch (DomainFailure invalid) {
      return Mono.error(invalid);
    }
    String folded = query == null || query.isEmpty() ? null : AgentStore.fold(query);
    return agents
        .search(
            ownerId,
            folded,
            after == null ? null : after[0],
            after == null ? null : after[1],
            size + 1)
        .collectList()
        .map(
            found -> {
              if (found.size() <= size) {
                return new AgentPage(found, null);
              }
              List<Agent> page = found.subList(0, size);
              Agent last = page.get(size - 1);
              return new AgentPage(page, encode(last.name(), last.id().value()));
            });
  }

  /**
   * The runtimes of those agents, of the ids given, that are in the owner's catalog. A catalog that
   * cannot be read is an error the caller can retry, never an empty answer.
   */
  public Mono<Map<String, AgentRuntime>> runtimes(String ownerId, Collection<String> ids) {
    return agents
        .runtimes(ownerId, ids)
        .onErrorMap(
            error -> !(error instanceof DomainFailure),
            error -> AgentProblems.catalogUnavailable());
  }

  private static AgentId existingId(String id) {
    if (!AgentId.isValid(id)) {
      throw AgentProblems.agentNotFound(id);
    }
    return new AgentId(id);
  }

  // A cursor is the last agent's name and id; NUL cannot occur in stored text, so it separates.
  private static String encode(String name, String id) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((name + '\u0000' + id).getBytes(StandardCharsets.UTF_8));
  }

  private static String[] decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int separator = text.indexOf('\u0000');
      if (separator < 0) {
        throw new IllegalArgumentException("no separator");
      }
      return new String[] {text.substring(0, separator), text.substring(separator + 1)};
    } catch (IllegalArgumentException e) {
      throw AgentProblems.invalidCursor();
    }
  }
}
