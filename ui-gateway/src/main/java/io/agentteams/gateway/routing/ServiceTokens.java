package io.agentteams.gateway.routing;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.InternalAudiences;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * The internal tokens the gateway signs, each for the one service it calls (its audience, {@link
 * InternalAudiences}): a token a service received is refused by every other service, so a service
 * cannot replay what it is sent. A token is reused for the same caller and service only.
 */
public final class ServiceTokens {

  private final ServiceEndpoints services;
  private final Map<String, CallerTokens> byAudience;
  private final Duration ttl;

  /**
   * @param signer the gateway's signer for one audience
   */
  public ServiceTokens(
      ServiceEndpoints services, Function<String, CallerTokens> signer, Duration ttl) {
    this.services = services;
    this.ttl = ttl;
    this.byAudience =
        Map.of(
            InternalAudiences.TEAM, signer.apply(InternalAudiences.TEAM),
            InternalAudiences.MAILBOX, signer.apply(InternalAudiences.MAILBOX),
            InternalAudiences.TASK_BOARD, signer.apply(InternalAudiences.TASK_BOARD),
            InternalAudiences.SCHEDULER, signer.apply(InternalAudiences.SCHEDULER));
  }

  /** A token for the caller, good at the service at {@code base} only. */
  public String forService(URI base, Caller caller) {
    return forAudience(audienceOf(base), caller);
  }

  /** A token for the caller, good at the service named {@code audience} only. */
  public String forAudience(String audience, Caller caller) {
    CallerTokens tokens = byAudience.get(audience);
    if (tokens == null) {
      throw new IllegalArgumentException("no service is called " + audience);
    }
    return tokens.reusable(caller, ttl);
  }

  /**
   * A token for the caller, good only at the service the route leads to ({@link ServiceRoutes}
   * names each route for its service).
   */
  public String forRoute(String routeId, URI target, Caller caller) {
    String audience =
        switch (routeId) {
          case "team" -> InternalAudiences.TEAM;
          case "mailbox" -> InternalAudiences.MAILBOX;
          case "task-board" -> InternalAudiences.TASK_BOARD;
          case "scheduler" -> InternalAudiences.SCHEDULER;
          default -> audienceOf(target);
        };
    return forAudience(audience, caller);
  }

  /** The audience of the service at {@code base}. */
  public String audienceOf(URI base) {
    if (base.equals(services.team())) {
      return InternalAudiences.TEAM;
    }
    if (base.equals(services.mailbox())) {
      return InternalAudiences.MAILBOX;
    }
    if (base.equals(services.taskBoard())) {
      return InternalAudiences.TASK_BOARD;
    }
    if (base.equals(services.scheduler())) {
      return InternalAudiences.SCHEDULER;
    }
    throw new IllegalArgumentException("no service listens at " + base);
  }
}
