package io.agentteams.gateway.console.agents;

import io.agentteams.gateway.console.ConsoleForm;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.ConsoleApi;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.WorkerStatus;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code /console/agents}: the owner's agents with whether a worker is connected; register and edit
 * an agent; mint a worker token, shown once; revoke every token of an agent; delete an agent (which
 * revokes its tokens; refused while it is a member of a live team); see a webhook agent's signing
 * secret once when it is registered, and rotate it.
 */
@Controller
public class AgentsController {

  /** Agents shown at once. */
  static final int PAGE = 100;

  private final Reads reads;
  private final ConsoleApi api;

  public AgentsController(Reads reads, ConsoleApi api) {
    this.reads = reads;
    this.api = api;
  }

  @GetMapping("/console/agents")
  public Mono<String> list(
      Principal principal,
      Model model,
      @RequestParam(required = false) @Nullable String saved,
      @RequestParam(required = false) @Nullable String deleted) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    model.addAttribute("saved", saved);
    model.addAttribute("deleted", deleted);
    return page(owner, model, AgentDraft.empty(), null);
  }

  /** Revokes every live token of the agent; the fragment that answers says how many. */
  @PostMapping("/console/agents/{agentId}/tokens/revoke")
  public Mono<String> revokeTokens(
      @PathVariable String agentId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.delete(owner, ConsoleApi.path("/api/v1/tokens", Map.of("agent_id", agentId)))
        .map(
            result -> {
              model.addAttribute("agentId", agentId);
              model.addAttribute("gateway", origin(exchange));
              if (result.ok() && result.body() != null) {
                model.addAttribute("revoked", result.body().path("revoked").asInt());
                model.addAttribute("error", null);
              } else {
                exchange.getResponse().setStatusCode(status(result));
                model.addAttribute("revoked", null);
                model.addAttribute("error", result.message());
              }
              return "fragments/agents :: revoked";
            });
  }

  /**
   * Deletes the agent (its tokens are revoked with it); an agent still in a live team stays, and
   * the page says why.
   */
  @PostMapping("/console/agents/{agentId}/delete")
  public Mono<String> delete(
      @PathVariable String agentId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return api.delete(owner, ConsoleApi.path("/api/v1/agents/{id}", Map.of(), agentId))
        .flatMap(
            result -> {
              if (result.ok()) {
                return Mono.just("redirect:/console/agents?deleted=" + agentId);
              }
              exchange.getResponse().setStatusCode(status(result));
              model.addAttribute("saved", null);
              model.addAttribute("deleted", null);
              return page(owner, model, AgentDraft.empty(), null)
                  .doOnNext(view -> model.addAttribute("error", result.message()));
            });
  }

  @PostMapping("/console/agents")
  public Mono<String> register(
      ConsoleForm form, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    AgentDraft draft = AgentDraft.of(form.fields());
    return api.post(owner, "/api/v1/agents", draft.request(true))
        .flatMap(
            result -> {
              String secret =
                  result.body() == null ? "" : result.body().path("webhook_secret").asString("");
              if (result.ok() && !secret.isEmpty()) {
                // A webhook agent's signing secret: shown on this page, this once.
                exchange.getResponse().getHeaders().setCacheControl("no-store");
                model.addAttribute("saved", draft.id());
                model.addAttribute("agentId", draft.id());
                model.addAttribute("secret", secret);
                model.addAttribute("previousValidUntil", null);
                return page(owner, model, AgentDraft.empty(), null);
              }
              if (result.ok()) {
                return Mono.just("redirect:/console/agents?saved=" + draft.id());
              }
              exchange.getResponse().setStatusCode(status(result));
              model.addAttribute("saved", null);
              return page(owner, model, draft, result.message());
            });
  }

  @GetMapping("/console/agents/{agentId}/edit")
  public Mono<String> edit(@PathVariable String agentId, Principal principal, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return reads
        .agent(owner, agentId)
        .map(agent -> editForm(model, agent.id(), AgentDraft.of(agent), null))
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> {
              model.addAttribute("message", "There is no such agent among yours.");
              return Mono.just("problem");
            });
  }

  @PostMapping("/console/agents/{agentId}")
  public Mono<String> replace(
      @PathVariable String agentId,
      ConsoleForm form,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    AgentDraft draft = AgentDraft.of(form.fields());
    return api.put(
            owner, ConsoleApi.path("/api/v1/agents/{id}", Map.of(), agentId), draft.request(false))
        .map(
            result -> {
              if (result.ok()) {
                return "redirect:/console/agents?saved=" + agentId;
              }
              exchange.getResponse().setStatusCode(status(result));
              return editForm(model, agentId, draft, result.message());
            });
  }

  /** A new worker token for the agent: shown once, in the fragment that answers. */
  @PostMapping("/console/agents/{agentId}/tokens")
  public Mono<String> mint(
      @PathVariable String agentId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    exchange.getResponse().getHeaders().setCacheControl("no-store");
    return api.post(
            owner, ConsoleApi.path("/api/v1/agents/{id}/tokens", Map.of(), agentId), Map.of())
        .map(
            result -> {
              model.addAttribute("agentId", agentId);
              if (result.ok() && result.body() != null) {
                String minted = result.body().path("access_token").asString();
                model.addAttribute("token", minted);
                model.addAttribute("run", WorkerCommands.of(origin(exchange), agentId, minted));
                model.addAttribute("expiresIn", result.body().path("expires_in").asLong());
                model.addAttribute("error", null);
              } else {
                exchange.getResponse().setStatusCode(status(result));
                model.addAttribute("token", null);
                model.addAttribute("run", null);
                model.addAttribute("error", result.message());
              }
              return "fragments/agents :: token";
            });
  }

  /**
   * A new signing secret for a webhook agent: shown once, in the fragment that answers; the
   * previous one is still signed with until the time it names.
   */
  @PostMapping("/console/agents/{agentId}/webhook-secret")
  public Mono<String> rotate(
      @PathVariable String agentId, Principal principal, ServerWebExchange exchange, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    exchange.getResponse().getHeaders().setCacheControl("no-store");
    return api.post(
            owner,
            ConsoleApi.path("/api/v1/agents/{id}/webhook-secret", Map.of(), agentId),
            Map.of())
        .map(
            result -> {
              model.addAttribute("agentId", agentId);
              model.addAttribute("gateway", origin(exchange));
              if (result.ok() && result.body() != null) {
                model.addAttribute("secret", result.body().path("webhook_secret").asString());
                model.addAttribute(
                    "previousValidUntil", result.body().path("previous_valid_until").asString(""));
                model.addAttribute("error", null);
              } else {
                exchange.getResponse().setStatusCode(status(result));
                model.addAttribute("secret", null);
                model.addAttribute("previousValidUntil", null);
                model.addAttribute("error", result.message());
              }
              return "fragments/agents :: secret";
            });
  }

  private Mono<String> page(
      Caller.Owner owner, Model model, AgentDraft draft, @Nullable String error) {
    model.addAttribute("draft", draft);
    model.addAttribute("formError", error);
    return reads
        .agents(owner, null, PAGE)
        .zipWith(workers(owner))
        .map(
            found -> {
              model.addAttribute("agents", found.getT1());
              model.addAttribute("workers", found.getT2().orElse(null));
              model.addAttribute("error", null);
              return "agents";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> {
              model.addAttribute("agents", List.of());
              model.addAttribute("workers", null);
              model.addAttribute("error", e.result().message());
              return Mono.just("agents");
            });
  }

  /**
   * Whether each pull agent's worker is connected, as out-of-band swaps of the agents' worker
   * lines: the page asks every few seconds.
   */
  @GetMapping("/console/agents/workers")
  public Mono<String> workers(Principal principal, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return reads
        .agents(owner, null, PAGE)
        .zipWith(workers(owner))
        .map(
            found -> {
              model.addAttribute("agents", found.getT1());
              model.addAttribute("workers", found.getT2().orElse(null));
              return "fragments/agents :: workers";
            });
  }

  /** The owner's connected workers by agent; empty when the scheduler cannot say now. */
  private Mono<Optional<Map<String, WorkerStatus>>> workers(Caller.Owner owner) {
    return reads
        .workers(owner)
        .map(Optional::of)
        .onErrorResume(ApiResult.ApiException.class, e -> Mono.just(Optional.empty()));
  }

  private static String editForm(
      Model model, String agentId, AgentDraft draft, @Nullable String error) {
    model.addAttribute("agentId", agentId);
    model.addAttribute("draft", draft);
    model.addAttribute("formError", error);
    return "agent-edit";
  }

  private static HttpStatus status(ApiResult result) {
    return result.status() >= 400 && result.status() < 500
        ? HttpStatus.valueOf(result.status())
        : HttpStatus.BAD_GATEWAY;
  }

  /** The address the person reached the gateway at, for the commands they copy. */
  static String origin(ServerWebExchange exchange) {
    java.net.URI uri = exchange.getRequest().getURI();
    return uri.getScheme() + "://" + uri.getRawAuthority();
  }
}
