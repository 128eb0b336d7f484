package io.agentteams.gateway.console.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.gateway.GatewayApplication;
import io.agentteams.gateway.support.StubServices;
import io.agentteams.gateway.support.TestIdentityProvider;
import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;

/**
 * The console's sessions over HTTP: a cookie copied before sign-out is refused after it (pages,
 * unsafe requests with its CSRF token, its open stream), sign-out everywhere, and the cookie and
 * HSTS behind a trusted proxy that says the request came over TLS.
 */
@RealInfrastructure
@SpringBootTest(
    classes = GatewayApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + GatewayApplication.CONFIG_NAME,
      "agentteams.gateway.identity.dev-identity-enabled=true",
      "agentteams.gateway.identity.oidc.issuer-uri=" + TestIdentityProvider.ISSUER,
      "agentteams.gateway.identity.oidc.audience=agent-teams",
      "agentteams.gateway.limits.anonymous-burst=100000",
      "agentteams.gateway.stream.heartbeat=200ms",
      "agentteams.gateway.forwarded.trusted-proxies=127.0.0.1/32",
      "agentteams.gateway.forwarded.hsts-max-age=1h"
    })
@AutoConfigureWebTestClient(timeout = "30s")
class ConsoleSessionIntegrationTest {

  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

  static final StubServices services = new StubServices();
  static final TestIdentityProvider idp = new TestIdentityProvider();

  @DynamicPropertySource
  static void endpoints(DynamicPropertyRegistry registry) {
    registry.add("agentteams.gateway.services.team", () -> services.url("team"));
    registry.add("agentteams.gateway.services.mailbox", () -> services.url("mailbox"));
    registry.add("agentteams.gateway.services.task-board", () -> services.url("task-board"));
    registry.add("agentteams.gateway.services.scheduler", () -> services.url("scheduler"));
    registry.add("agentteams.gateway.identity.oidc.jwk-set-uri", idp::jwkSetUri);
  }

  @AfterAll
  static void stop() {
    services.close();
    idp.close();
  }

  @Autowired WebTestClient web;
  @LocalServerPort int port;

  /** A browser's console cookie and the CSRF token its pages carry. */
  record Browser(String cookie, String csrf) {}

  private Browser signIn(String owner) {
    EntityExchangeResult<String> page =
        web.get().uri("/console/signin").exchange().expectBody(String.class).returnResult();
    String anonymous = cookie(page.getResponseCookies().getFirst("agentteams-console"));
    String csrf = csrf(page.getResponseBody());
    EntityExchangeResult<byte[]> signedIn =
        web.post()
            .uri("/console/signin/dev")
            .cookie("agentteams-console", anonymous)
            .contentType(MediaType.APPLICATION_FORM_URLENCODED)
            .body(BodyInserters.fromFormData("owner_id", owner).with("_csrf", csrf))
            .exchange()
            .expectStatus()
            .is3xxRedirection()
            .expectBody()
            .returnResult();
    String session = cookie(signedIn.getResponseCookies().getFirst("agentteams-console"));
    String page2 =
        web.get()
            .uri("/console/signin")
            .cookie("agentteams-console", session)
            .exchange()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    return new Browser(session, csrf(page2));
  }

  private static String cookie(ResponseCookie cookie) {
    assertThat(cookie).isNotNull();
    return cookie.getValue();
  }

  private static String csrf(String html) {
    Matcher matcher = CSRF.matcher(html);
    assertThat(matcher.find()).as("a CSRF field in %s", html).isTrue();
    return matcher.group(1);
  }

  /** Where a page request with this cookie is sent, or null when it is served. */
  private String pageRedirect(Browser browser) {
    return web.get()
        .uri("/console/teams")
        .cookie("agentteams-console", browser.cookie())
        .exchange()
        .returnResult(String.class)
        .getResponseHeaders()
        .getFirst(HttpHeaders.LOCATION);
  }

  private int revokeTokens(Browser browser) {
    return web.post()
        .uri("/console/agents/{agent}/tokens/revoke", StubServices.AGENT)
        .cookie("agentteams-console", browser.cookie())
        .header(SessionCsrfTokens.HEADER, browser.csrf())
        .header("HX-Request", "true")
        .exchange()
        .returnResult(String.class)
        .getStatus()
        .value();
  }

  @Test
  void aCookieCopiedBeforeSignOutIsRefusedAfterItAndItsStreamCloses() {
    Browser browser = signIn(StubServices.OWNER);
    assertThat(pageRedirect(browser)).isNull();
    assertThat(revokeTokens(browser)).isNotEqualTo(403);

    AtomicBoolean ended = new AtomicBoolean();
    List<String> events = new CopyOnWriteArrayList<>();
    Disposable stream =
        WebClient.create("http://127.0.0.1:" + port)
            .get()
            .uri("/console/teams/{team}/changes", StubServices.TEAM)
            .cookie("agentteams-console", browser.cookie())
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
            .doOnNext(event -> events.add(String.valueOf(event.event())))
            .doOnTerminate(() -> ended.set(true))
            .subscribe(event -> {}, error -> {});
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> !events.isEmpty());
      assertThat(ended).isFalse();

      web.post()
          .uri("/console/signout")
          .cookie("agentteams-console", browser.cookie())
          .contentType(MediaType.APPLICATION_FORM_URLENCODED)
          .body(BodyInserters.fromFormData("_csrf", browser.csrf()))
          .exchange()
          .expectStatus()
          .is3xxRedirection();

      await().atMost(Duration.ofSeconds(5)).untilTrue(ended);
      assertThat(events).last().isEqualTo(SessionRecords.SIGNED_OUT);
      assertThat(pageRedirect(browser)).isEqualTo("/console/signin?ended=1");
      assertThat(revokeTokens(browser)).isEqualTo(403);
    } finally {
      stream.dispose();
    }
  }

  @Test
  void signingOutEverywhereEndsEveryConsoleSessionOfThatOwner() {
    Browser laptop = signIn(StubServices.OWNER);
    Browser phone = signIn(StubServices.OWNER);
    Browser someoneElse = signIn("someone-else");
    assertThat(pageRedirect(phone)).isNull();

    web.post()
        .uri("/console/signout/everywhere")
        .cookie("agentteams-console", laptop.cookie())
        .contentType(MediaType.APPLICATION_FORM_URLENCODED)
        .body(BodyInserters.fromFormData("_csrf", laptop.csrf()))
        .exchange()
        .expectStatus()
        .is3xxRedirection();

    assertThat(pageRedirect(laptop)).isEqualTo("/console/signin?ended=1");
    assertThat(pageRedirect(phone)).isEqualTo("/console/signin?ended=1");
    assertThat(revokeTokens(phone)).isEqualTo(403);
    assertThat(pageRedirect(someoneElse)).isNull();
  }

  @Test
  void behindATrustedProxyOverTlsTheCookieIsSecureHostPrefixedAndHstsIsSent() {
    web.get()
        .uri("/console/signin")
        .header("X-Forwarded-Proto", "https")
        .header("X-Forwarded-Host", "console.example")
        .exchange()
        .expectHeader()
        .valueEquals("Strict-Transport-Security", "max-age=3600; includeSubDomains")
        .expectCookie()
        .secure("__Host-agentteams-console", true);
    web.get()
        .uri("/console/signin")
        .exchange()
        .expectHeader()
        .doesNotExist("Strict-Transport-Security")
        .expectCookie()
        .secure("agentteams-console", false);
  }
}
