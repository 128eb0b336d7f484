package io.agentteams.platform.web.openapi;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.Fails;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.EnumSet;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Makes the generated API description match the API: snake_case properties, no parameter for the
 * verified caller (it travels in the bearer token), bearer authentication, and each operation's
 * errors as Problem Details ({@code application/problem+json}).
 */
@AutoConfiguration
@ConditionalOnClass(OperationCustomizer.class)
public class ApiDocsAutoConfiguration {

  private static final String PROBLEM = "Problem";
  private static final Set<ProblemException.Kind> EVERY_OPERATION =
      EnumSet.of(
          ProblemException.Kind.INVALID,
          ProblemException.Kind.UNAUTHENTICATED,
          ProblemException.Kind.FORBIDDEN,
          ProblemException.Kind.TOO_MANY_REQUESTS);

  static {
    SpringDocUtils.getConfig()
        .addRequestWrapperToIgnore(
            Caller.class,
            Caller.Owner.class,
            Caller.Member.class,
            Caller.Worker.class,
            Caller.Service.class);
  }

  /** Schemas named as the JSON is: snake_case. */
  @Bean
  ModelResolver snakeCaseModelResolver() {
    return new ModelResolver(
        Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
  }

  @Bean
  OperationCustomizer problemResponses() {
    return (operation, handler) -> {
      Set<ProblemException.Kind> kinds = EnumSet.copyOf(EVERY_OPERATION);
      Fails fails = handler.getMethodAnnotation(Fails.class);
      if (fails != null) {
        kinds.addAll(Set.of(fails.value()));
      }
      ApiResponses responses =
          operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
      for (ProblemException.Kind kind : kinds) {
        responses.addApiResponse(
            Integer.toString(kind.status()),
            new ApiResponse()
                .description(kind.title())
                .content(
                    new Content()
                        .addMediaType(
                            "application/problem+json",
                            new MediaType()
                                .schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM)))));
      }
      operation.setResponses(responses);
      return operation;
    };
  }

  @Bean
  OpenApiCustomizer problemSchemaAndBearerAuth(
      @Value("${spring.application.name}") String application) {
    return openApi -> {
      Components components =
          openApi.getComponents() == null ? new Components() : openApi.getComponents();
      components.addSchemas(
          PROBLEM,
          new ObjectSchema()
              .description("RFC 9457 Problem Details; more properties name the facts")
              .addProperty("type", new StringSchema().format("uri"))
              .addProperty("title", new StringSchema())
              .addProperty("status", new IntegerSchema())
              .addProperty("detail", new StringSchema())
              .addProperty("instance", new StringSchema())
              .addProperty("code", new StringSchema().description("stable name of the problem"))
              .additionalProperties(true));
      components.addSecuritySchemes(
          "bearer", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer"));
      openApi.setComponents(components);
      openApi.addSecurityItem(new SecurityRequirement().addList("bearer"));
      openApi.setInfo(new Info().title(application + " API").version("v1"));
      openApi.setServers(null);
    };
  }
}
