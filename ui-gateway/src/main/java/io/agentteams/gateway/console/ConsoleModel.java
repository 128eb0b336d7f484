package io.agentteams.gateway.console;

import io.agentteams.gateway.console.session.ConsoleAuthentication;
import io.agentteams.gateway.console.view.Format;
import java.security.Principal;
import org.jspecify.annotations.Nullable;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** What every console page needs: the CSRF token, who is signed in, the limits. */
@ControllerAdvice(basePackages = "io.agentteams.gateway.console")
public class ConsoleModel {

  private final ConsoleProperties properties;

  public ConsoleModel(ConsoleProperties properties) {
    this.properties = properties;
  }

  @ModelAttribute("csrf")
  public Mono<CsrfToken> csrf(ServerWebExchange exchange) {
    Mono<CsrfToken> token = exchange.getAttribute(CsrfToken.class.getName());
    return token == null ? Mono.empty() : token;
  }

  @ModelAttribute("me")
  public Mono<ConsoleAuthentication> me(ServerWebExchange exchange) {
    return exchange
        .getPrincipal()
        .filter(ConsoleAuthentication.class::isInstance)
        .cast(ConsoleAuthentication.class);
  }

  @ModelAttribute("fmt")
  public Format fmt() {
    return Format.INSTANCE;
  }

  @ModelAttribute("limits")
  public ConsoleProperties.Limits limits() {
    return properties.limits();
  }

  @ModelAttribute("grafanaUrl")
  public @Nullable String grafanaUrl() {
    return properties.grafanaUrl() == null ? null : properties.grafanaUrl().toString();
  }

  /** The signed-in person of a request, for controllers. */
  public static ConsoleAuthentication signedIn(Principal principal) {
    return (ConsoleAuthentication) principal;
  }
}
