package io.agentteams.gateway.headers;

import java.time.Duration;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import org.springframework.web.server.WebFilter;

/**
 * CORS for the public API, only when {@code agentteams.gateway.cors.allowed-origins} names origins;
 * without it no CORS header is ever sent, so browsers keep other origins out.
 */
@Configuration(proxyBeanMethods = false)
public class CorsPolicy {

  @Bean
  WebFilter corsWebFilter(CorsProperties properties) {
    if (properties.allowedOrigins().isEmpty()) {
      return (exchange, chain) -> chain.filter(exchange);
    }
    CorsConfiguration api = new CorsConfiguration();
    api.setAllowedOrigins(properties.allowedOrigins());
    api.setAllowedMethods(List.of("GET", "POST", "PUT", "PATCH", "DELETE"));
    api.setAllowedHeaders(
        List.of("Authorization", "Content-Type", "Last-Event-ID", "If-None-Match", "If-Match"));
    api.setExposedHeaders(List.of("ETag", "Retry-After", "Location"));
    api.setAllowCredentials(false);
    api.setMaxAge(Duration.ofHours(1));
    UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
    source.registerCorsConfiguration("/api/**", api);
    return new CorsWebFilter(source);
  }
}
