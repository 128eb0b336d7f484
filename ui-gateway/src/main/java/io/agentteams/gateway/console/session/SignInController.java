package io.agentteams.gateway.console.session;

import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.identity.EdgeIdentityProperties;
import java.security.Principal;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The sign-in page: the development sign-in (type an owner id; embedded stack only) and, when
 * configured, sign-in with the OpenID Connect provider; and signing out everywhere (every session
 * of the owner, on every replica).
 */
@Controller
public class SignInController {

  private static final Pattern OWNER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  private final SessionCookies cookies;
  private final SessionSecurityContexts contexts;
  private final SessionRecords records;
  private final ConsoleProperties console;
  private final boolean devSignIn;
  private final boolean oidcSignIn;

  public SignInController(
      SessionCookies cookies,
      SessionSecurityContexts contexts,
      SessionRecords records,
      ConsoleProperties console,
      EdgeIdentityProperties identity) {
    this.cookies = cookies;
    this.contexts = contexts;
    this.records = records;
    this.console = console;
    this.devSignIn = identity.devIdentityEnabled();
    this.oidcSignIn = OidcSignIn.configured(identity, console) != null;
  }

  @GetMapping({"/", "/console", "/console/"})
  public String home() {
    return "redirect:/console/teams";
  }

  @GetMapping("/console/signin")
  public String page(
      Model model,
      @RequestParam(required = false) @Nullable String error,
      @RequestParam(name = "signed-out", required = false) @Nullable String signedOut,
      @RequestParam(required = false) @Nullable String ended) {
    model.addAttribute("devSignIn", devSignIn);
    model.addAttribute("oidcSignIn", oidcSignIn);
    model.addAttribute(
        "oidcPath", CookieAuthorizationRequests.PATH + "/" + OidcSignIn.REGISTRATION);
    model.addAttribute("ownerId", "");
    model.addAttribute(
        "error",
        "provider".equals(error) ? "The identity provider did not sign you in. Try again." : null);
    model.addAttribute("signedOut", signedOut != null);
    model.addAttribute("ended", ended != null);
    return "signin";
  }

  /**
   * Signs the owner out of every console session, in every browser and on every replica (pages,
   * unsafe requests and open streams of each are refused from then on), and this browser with it.
   */
  @PostMapping("/console/signout/everywhere")
  public Mono<String> signOutEverywhere(ServerWebExchange exchange, Principal principal) {
    if (!(principal instanceof ConsoleAuthentication console)) {
      return Mono.error(new ResponseStatusException(HttpStatus.UNAUTHORIZED));
    }
    return records
        .endAll(console.session().ownerId())
        .then(contexts.save(exchange, null))
        .thenReturn("redirect:/console/signin?signed-out=1");
  }

  /** The development sign-in: whoever types an owner id is that owner. */
  @PostMapping("/console/signin/dev")
  public Mono<String> devSignIn(ServerWebExchange exchange, Model model) {
    if (!devSignIn) {
      return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
    }
    return exchange
        .getFormData()
        .flatMap(
            form -> {
              String owner = form.getFirst("owner_id");
              owner = owner == null ? "" : owner.strip();
              if (!OWNER.matcher(owner).matches()) {
                model.addAttribute("devSignIn", true);
                model.addAttribute("oidcSignIn", oidcSignIn);
                model.addAttribute(
                    "oidcPath", CookieAuthorizationRequests.PATH + "/" + OidcSignIn.REGISTRATION);
                model.addAttribute("ownerId", owner);
                model.addAttribute(
                    "ownerError", "Use 1 to 64 characters: letters, digits, and . _ @ -");
                model.addAttribute("error", null);
                model.addAttribute("signedOut", false);
                model.addAttribute("ended", false);
                exchange.getResponse().setStatusCode(HttpStatus.UNPROCESSABLE_CONTENT);
                return Mono.just("signin");
              }
              ConsoleSession session = cookies.signedIn(owner, "dev", null);
              return contexts
                  .save(
                      exchange,
                      new SecurityContextImpl(
                          new ConsoleAuthentication(session, console.isOperator(owner))))
                  .thenReturn("redirect:/console/teams");
            });
  }
}
