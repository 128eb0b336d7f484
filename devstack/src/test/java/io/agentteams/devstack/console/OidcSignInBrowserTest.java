package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.gateway.GatewayApplication;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Sign-in with a real OpenID Connect provider on loopback (mock-oauth2-server, with its own login
 * page): the authorization code flow with PKCE (S256) and a nonce, an HttpOnly SameSite session
 * cookie, the console acting as the owner the ID token names, and sign-out that ends the provider's
 * session too. A gateway of its own runs against the shared services with OIDC configured and the
 * development identity off.
 */
@RealInfrastructure
class OidcSignInBrowserTest {

  private static MockOAuth2Server provider;
  private static ConfigurableApplicationContext gateway;
  private static String console;

  @BeforeAll
  static void start() throws Exception {
    provider = new MockOAuth2Server(new OAuth2Config(true));
    provider.start(InetAddress.getByName("127.0.0.1"), 0);
    String issuer = provider.issuerUrl("default").toString();
    var stack = SharedStack.get();
    Map<String, Object> properties = new LinkedHashMap<>(stack.keys().gatewaySettings());
    properties.put("server.port", 0);
    // Its actuator on a free loopback port of its own, not the shipped default's fixed one.
    properties.put("management.server.port", 0);
    properties.put("spring.main.banner-mode", "off");
    properties.put("logging.include-application-name", false);
    properties.put(
        "spring.kafka.bootstrap-servers", TestInfrastructure.shared().kafkaBootstrapServers());
    properties.put("agentteams.kafka.partitions", SharedStack.PARTITIONS);
    properties.put("agentteams.gateway.services.team", stack.url(Service.TEAM));
    properties.put("agentteams.gateway.services.mailbox", stack.url(Service.MAILBOX));
    properties.put("agentteams.gateway.services.task-board", stack.url(Service.TASK_BOARD));
    properties.put("agentteams.gateway.services.scheduler", stack.url(Service.SCHEDULER));
    properties.put("agentteams.gateway.identity.dev-identity-enabled", false);
    properties.put("agentteams.gateway.identity.oidc.issuer-uri", issuer);
    properties.put("agentteams.gateway.identity.oidc.audience", "agent-teams-console");
    properties.put("agentteams.gateway.console.oidc.client-id", "agent-teams-console");
    properties.put(
        "agentteams.gateway.console.oidc.client-secret", "test-only-console-client-secret");
    properties.put(
        "agentteams.gateway.console.session-secret", "test-only-console-session-secret-0123456789");
    List<String> args = new ArrayList<>();
    properties.forEach((key, value) -> args.add("--" + key + "=" + value));
    gateway = GatewayApplication.application().run(args.toArray(String[]::new));
    // "localhost", not 127.0.0.1: the shared gateway's session cookie lives on that host.
    console =
        "http://localhost:" + ((WebServerApplicationContext) gateway).getWebServer().getPort();
  }

  @AfterAll
  static void stop() {
    provider.shutdown();
    // Closed with the JVM, as the shared stack is: closing a web application early would dispose
    // the Netty resources every server of this JVM shares.
    ConfigurableApplicationContext started = gateway;
    Runtime.getRuntime().addShutdownHook(new Thread(started::close, "oidc-gateway-shutdown"));
  }

  @Test
  void signsInWithTheProviderUsingPkceAndSignsOutThere() throws Exception {
    Browser browser = Browser.shared();
    browser.get(console + "/console/teams");
    browser.waitUntil(d -> d.getCurrentUrl().endsWith("/console/signin"));
    assertThat(browser.driver().findElements(By.id("dev-signin")))
        .as("no development sign-in")
        .isEmpty();

    browser.click(By.id("oidc-signin"));
    browser.waitFor(By.name("username")).sendKeys("ophelia");
    browser.click(By.cssSelector("input[type=submit]"));
    browser.waitUntil(d -> d.getCurrentUrl().equals(console + "/console/teams"));
    assertThat(browser.waitFor(By.cssSelector(".who")).getText()).isEqualTo("Signed in as ophelia");
    assertThat(browser.waitFor(By.id("team-count")).getText()).isEqualTo("0 of 20 teams");

    Cookie session = browser.driver().manage().getCookieNamed("agentteams-console");
    assertThat(session).isNotNull();
    assertThat(session.isHttpOnly()).isTrue();
    assertThat(session.getSameSite()).isEqualTo("Lax");
    assertThat(session.getPath()).isEqualTo("/");

    List<RecordedRequest> requests = received();
    RecordedRequest authorize =
        requests.stream()
            .filter(r -> r.getPath().startsWith("/default/authorize"))
            .findFirst()
            .orElseThrow();
    assertThat(authorize.getRequestUrl().queryParameter("code_challenge_method")).isEqualTo("S256");
    assertThat(authorize.getRequestUrl().queryParameter("code_challenge")).isNotBlank();
    assertThat(authorize.getRequestUrl().queryParameter("nonce")).isNotBlank();
    assertThat(authorize.getRequestUrl().queryParameter("state")).isNotBlank();
    RecordedRequest token =
        requests.stream()
            .filter(r -> r.getPath().startsWith("/default/token"))
            .findFirst()
            .orElseThrow();
    assertThat(token.getBody().readUtf8())
        .contains("code_verifier=")
        .contains("grant_type=authorization_code");

    browser.click(By.cssSelector(".signout button"));
    browser.waitUntil(d -> d.getCurrentUrl().startsWith(console + "/console/signin?signed-out"));
    browser.waitForText(By.cssSelector("main"), "You are signed out.");
    RecordedRequest endSession =
        received().stream()
            .filter(r -> r.getPath().startsWith("/default/endsession"))
            .findFirst()
            .orElse(null);
    assertThat(endSession).as("the provider's session ended too").isNotNull();
    assertThat(endSession.getRequestUrl().queryParameter("id_token_hint")).isNotBlank();

    browser.get(console + "/console/teams");
    browser.waitUntil(d -> d.getCurrentUrl().endsWith("/console/signin"));
  }

  /** The requests the provider received since the last call. */
  private static List<RecordedRequest> received() {
    List<RecordedRequest> requests = new ArrayList<>();
    while (true) {
      try {
        requests.add(provider.takeRequest(1, TimeUnit.SECONDS));
      } catch (RuntimeException none) {
        return requests;
      }
    }
  }
}
