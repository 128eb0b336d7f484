package io.agentteams.gateway.routing;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Which service owns which public path (DESIGN.md section 4). Paths the gateway serves itself
 * (streams, the team context, tools) are controllers and take precedence over these routes. The
 * calls the routes proxy are measured under a name of their own ({@link
 * ProxiedRequestsConvention}).
 */
@Configuration(proxyBeanMethods = false)
public class ServiceRoutes {

  @Bean
  RouteLocator publicApiRoutes(RouteLocatorBuilder routes, ServiceEndpoints services) {
    return routes
        .routes()
        .route(
            "scheduler",
            r ->
                r.order(0)
                    .path(
                        "/api/v1/agents/*/jobs/**",
                        "/api/v1/workers",
                        "/api/v1/jobs/**",
                        "/api/v1/teams/*/requests/**",
                        "/api/v1/teams/*/jobs/**",
                        "/api/v1/teams/*/runs/**",
                        "/api/v1/teams/*/activity/**",
                        "/api/v1/teams/*/spend/**",
                        "/api/v1/teams/*/budget/**",
                        "/api/v1/budget/**")
                    .uri(services.scheduler()))
        .route(
            "mailbox",
            r ->
                r.order(1)
                    .path(
                        "/api/v1/teams/*/messages/**",
                        "/api/v1/teams/*/inbox/**",
                        "/api/v1/teams/*/history/**",
                        "/api/v1/teams/*/results/**")
                    .uri(services.mailbox()))
        .route(
            "task-board",
            r ->
                r.order(2)
                    .path("/api/v1/teams/*/tasks/**", "/api/v1/teams/*/plans/**")
                    .uri(services.taskBoard()))
        .route(
            "team",
            r ->
                r.order(3)
                    .path(
                        "/api/v1/agents",
                        "/api/v1/agents/**",
                        "/api/v1/teams",
                        "/api/v1/teams/*",
                        "/api/v1/teams/*/reconnect",
                        "/api/v1/teams/*/state/**",
                        "/api/v1/tokens",
                        "/api/v1/tokens/**")
                    .uri(services.team()))
        .build();
  }

  @Bean
  ProxiedRequestsConvention proxiedRequestsConvention() {
    return new ProxiedRequestsConvention();
  }
}
