package io.agentteams.platform.web.openapi;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.web.Fails;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RealInfrastructure
@SpringBootTest(
    classes = ApiDocsIntegrationTest.SampleService.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.application.name=sample-service",
      "spring.jackson.property-naming-strategy=SNAKE_CASE"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
class ApiDocsIntegrationTest {

  /** TEST ONLY: a fresh gateway key's public half, as every service must be given. */
  @DynamicPropertySource
  static void keys(DynamicPropertyRegistry registry) {
    registry.add(
        "agentteams.identity.internal-verification-keys",
        () ->
            TokenKeys.publicSet(
                TokenKeys.internalSigning(TokenKeys.generateInternalSigning(), "test")));
  }

  @SpringBootApplication
  @Import(Widgets.class)
  static class SampleService {}

  /** A representation with a camelCase component, as every service has. */
  public record Widget(UUID widgetId, String displayName) {}

  @RestController
  public static class Widgets {
    @GetMapping("/api/v1/widgets/{widgetId}")
    @Fails({ProblemException.Kind.NOT_FOUND})
    public Mono<Widget> get(Caller.Owner owner, @PathVariable UUID widgetId) {
      return Mono.just(new Widget(widgetId, owner.ownerId()));
    }
  }

  @Autowired WebTestClient web;

  @Test
  void describesTheApiInTheWiresOwnTermsWithEachOperationsProblems() {
    web.get()
        .uri("/v3/api-docs")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.info.title")
        .isEqualTo("sample-service API")
        .jsonPath("$.components.schemas.Widget.properties.display_name")
        .exists()
        .jsonPath("$.components.schemas.Widget.properties.displayName")
        .doesNotExist()
        // The verified caller is the bearer token, not a parameter.
        .jsonPath("$.paths['/api/v1/widgets/{widgetId}'].get.parameters.length()")
        .isEqualTo(1)
        .jsonPath(
            "$.paths['/api/v1/widgets/{widgetId}'].get.responses['404'].content['application/problem+json']")
        .exists()
        .jsonPath("$.paths['/api/v1/widgets/{widgetId}'].get.responses['401']")
        .exists()
        .jsonPath("$.paths['/api/v1/widgets/{widgetId}'].get.responses['409']")
        .doesNotExist()
        .jsonPath("$.components.schemas.Problem.properties.code")
        .exists()
        .jsonPath("$.components.securitySchemes.bearer.scheme")
        .isEqualTo("bearer");
  }
}
