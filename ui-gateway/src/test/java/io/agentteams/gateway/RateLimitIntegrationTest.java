package io.agentteams.gateway;

import static io.agentteams.gateway.support.EdgeCalls.devToken;
import static io.agentteams.gateway.support.EdgeCalls.mcp;
import static io.agentteams.gateway.support.EdgeCalls.memberToken;
import static io.agentteams.gateway.support.EdgeCalls.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.gateway.limits.LoopbackCalls;
import io.agentteams.gateway.support.StubServices;
import io.agentteams.platform.identity.IdentityProperties;
import io.agentteams.platform.test.RealInfrastructure;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Each token has its own request budget; beyond it the gateway answers 429 with Retry-After. */
@RealInfrastructure
@SpringBootTest(
    classes = GatewayApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + GatewayApplication.CONFIG_NAME,
      "agentteams.gateway.identity.dev-identity-enabled=true",
      // One request per 100 s after a burst of 3: no refill can happen during the test.
      "agentteams.gateway.limits.requests-per-second=0.01",
      "agentteams.gateway.limits.burst=3"
    })
@AutoConfigureWebTestClient
class RateLimitIntegrationTest {

  static final StubServices services = new StubServices(IdentityProperties.DEVELOPMENT_SECRET);

  @DynamicPropertySource
  static void endpoints(DynamicPropertyRegistry registry) {
    registry.add("agentteams.gateway.services.team", () -> services.url("team"));
  }

  @AfterAll
  static void stop() {
    services.close();
  }

  @Autowired WebTestClient web;

  @BeforeEach
  void clear() {
    services.clear();
  }

  @Test
  void aTokenOverItsBudgetGets429WithRetryAfterWhileOtherTokensAreServed() {
    String busy = devToken(web, "busy");
    String calm = devToken(web, "calm");
    for (int i = 0; i < 3; i++) {
      web.get()
          .uri("/api/v1/teams")
          .header("Authorization", "Bearer " + busy)
          .exchange()
          .expectStatus()
          .isOk();
    }
    String retryAfter =
        web.get()
            .uri("/api/v1/teams")
            .header("Authorization", "Bearer " + busy)
            .exchange()
            .expectStatus()
            .isEqualTo(429)
            .expectBody()
            .jsonPath("$.code")
            .isEqualTo("rate-limited")
            .returnResult()
            .getResponseHeaders()
            .getFirst("Retry-After");
    assertThat(Long.parseLong(retryAfter)).isPositive();
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + calm)
        .exchange()
        .expectStatus()
        .isOk();
    assertThat(services.hits()).hasSize(4);
  }

  @Test
  void anMcpToolCallCountsOnceAgainstItsTokensBudget() {
    String owner = devToken(web, StubServices.OWNER);
    String member = memberToken(web, owner);
    services.clear();
    // The burst is 3: three tool calls, each made by the gateway as a REST call back through
    // itself, all reach the service; counting the loop-back too would refuse the second one.
    for (int id = 1; id <= 3; id++) {
      Map<?, ?> result = (Map<?, ?>) mcp(web, member, readTeamState(id)).get("result");
      assertThat(result.get("isError")).as("tool call %s", id).isEqualTo(false);
    }
    assertThat(services.hits()).hasSize(3);
    web.post()
        .uri("/api/v1/mcp")
        .header("Authorization", "Bearer " + member)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(readTeamState(4))
        .exchange()
        .expectStatus()
        .isEqualTo(429);
    assertThat(services.hits()).hasSize(3);
  }

  @Test
  void aClientCannotPassItsRequestsOffAsTheGatewaysOwnCalls() {
    String forger = devToken(web, "forger");
    for (int i = 0; i < 3; i++) {
      web.get()
          .uri("/api/v1/teams")
          .header("Authorization", "Bearer " + forger)
          .header(LoopbackCalls.HEADER, "guessed-" + i)
          .exchange()
          .expectStatus()
          .isOk();
    }
    web.get()
        .uri("/api/v1/teams")
        .header("Authorization", "Bearer " + forger)
        .header(LoopbackCalls.HEADER, "guessed")
        .exchange()
        .expectStatus()
        .isEqualTo(429);
  }

  private static Map<String, ?> readTeamState(int id) {
    return toolCall(
        id, "read_team_state", Map.of("team_id", StubServices.TEAM.toString(), "kind", "finding"));
  }
}
