package io.agentteams.team.agents.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.agentteams.platform.identity.Caller;
import io.agentteams.team.agents.application.AgentCatalog;
import io.agentteams.team.agents.application.AgentPage;
import io.agentteams.team.agents.domain.Agent;
import io.agentteams.team.agents.domain.AgentDraft;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code /api/v1/agents}: an owner registers, replaces, reads, searches and deletes their agents.
 */
@RestController
@RequestMapping("/api/v1/agents")
public class AgentController {

  private final AgentCatalog catalog;

  public AgentController(AgentCatalog catalog) {
    this.catalog = catalog;
  }

  @PostMapping
  public Mono<ResponseEntity<AgentView>> register(
      Caller.Owner owner, @RequestBody AgentRequest request) {
    return catalog
        .register(owner.ownerId(), request.id(), request.draft())
        .map(
            saved ->
                ResponseEntity.created(URI.create("/api/v1/agents/" + saved.agent().id()))
                    .body(AgentView.of(saved)));
  }

  @PutMapping("/{agentId}")
  public Mono<AgentView> replace(
      Caller.Owner owner, @PathVariable String agentId, @RequestBody Mono<AgentRequest> body) {
    // Another owner's agent is not found before its body is read.
    return catalog
        .find(owner.ownerId(), agentId)
        .then(body)
        .flatMap(request -> catalog.replace(owner.ownerId(), agentId, request.draft()))
        .map(AgentView::of);
  }

  @DeleteMapping("/{agentId}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  public Mono<Void> delete(Caller.Owner owner, @PathVariable String agentId) {
    return catalog.delete(owner.ownerId(), agentId);
  }

  /**
   * {@code POST /api/v1/agents/{id}/webhook-secret}: a new signing secret for a webhook agent,
   * shown this once. Pushes are signed with both the new and the previous secret until {@code
   * previous_valid_until}, so the agent can switch to the new one without refusing a push.
   */
  @PostMapping("/{agentId}/webhook-secret")
  public Mono<SecretView> rotateWebhookSecret(Caller.Owner owner, @PathVariable String agentId) {
    return catalog
        .rotateWebhookSecret(owner.ownerId(), agentId)
        .map(secrets -> new SecretView(secrets.current(), secrets.previousValidUntil()));
  }

  @GetMapping("/{agentId}")
  public Mono<AgentView> get(Caller.Owner owner, @PathVariable String agentId) {
    return catalog.find(owner.ownerId(), agentId).map(AgentView::of);
  }

  @GetMapping
  public Mono<PageView> search(
      Caller.Owner owner,
      @RequestParam(name = "q", required = false) @Nullable String query,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable String cursor) {
    return catalog.search(owner.ownerId(), query, limit, cursor).map(PageView::of);
  }

  /** The body of a register or replace request; the id is only read on register. */
  public record AgentRequest(
      @Nullable String id,
      @Nullable String name,
      @Nullable String description,
      @Nullable RuntimeRequest runtime,
      @Nullable List<String> toolGroups) {

    AgentDraft draft() {
      return new AgentDraft(
          name,
          description,
          runtime == null ? "pull" : runtime.kind(),
          runtime == null ? null : runtime.endpoint(),
          toolGroups);
    }
  }

  /** How the agent runs; a missing runtime means {@code pull}. */
  public record RuntimeRequest(@Nullable String kind, @Nullable String endpoint) {}

  /**
   * An agent as the API shows it. {@code webhook_secret} appears only in the answer that made it:
   * registering a webhook agent, or turning an agent into one.
   */
  public record AgentView(
      String id,
      String name,
      String description,
      RuntimeView runtime,
      List<String> toolGroups,
      long revision,
      Instant createdAt,
      Instant updatedAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String webhookSecret) {

    static AgentView of(AgentCatalog.Saved saved) {
      return of(saved.agent(), saved.newWebhookSecret());
    }

    static AgentView of(Agent agent) {
      return of(agent, null);
    }

    private static AgentView of(Agent agent, @Nullable String webhookSecret) {
      return new AgentView(
          agent.id().value(),
          agent.name(),
          agent.description(),
          new RuntimeView(agent.runtime().kind().wire(), agent.runtime().endpoint()),
          agent.toolGroups(),
          agent.revision(),
          agent.createdAt(),
          agent.updatedAt(),
          webhookSecret);
    }
  }

  /**
   * A rotated webhook secret.
   *
   * @param webhookSecret the new secret, shown this once
   * @param previousValidUntil until when pushes are signed with the previous secret too
   */
  public record SecretView(String webhookSecret, @Nullable Instant previousValidUntil) {}

  /** How an agent runs, as the API shows it. */
  public record RuntimeView(String kind, @Nullable String endpoint) {}

  /** A page of search results and where the next one starts. */
  public record PageView(List<AgentView> items, @Nullable String nextCursor) {

    static PageView of(AgentPage page) {
      return new PageView(page.agents().stream().map(AgentView::of).toList(), page.nextCursor());
    }
  }
}
