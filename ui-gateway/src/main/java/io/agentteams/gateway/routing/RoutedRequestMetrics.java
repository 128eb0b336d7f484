package io.agentteams.gateway.routing;

import org.springframework.cloud.gateway.filter.headers.observation.DefaultGatewayObservationConvention;
import org.springframework.cloud.gateway.filter.headers.observation.GatewayObservationConvention;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The routed requests' metrics under a name of their own. The gateway's routing and its own HTTP
 * client (which reads the services' API descriptions, readiness and internal answers) both call
 * theirs {@code http.client.requests}, with different tags; Prometheus takes only one set of tags
 * per name, so whichever came second was dropped, with a warning.
 */
@Configuration(proxyBeanMethods = false)
public class RoutedRequestMetrics {

  /** The name the routed requests are measured under. */
  public static final String NAME = "spring.cloud.gateway.http.client.requests";

  @Bean
  GatewayObservationConvention routedRequestObservations() {
    return new DefaultGatewayObservationConvention() {
      @Override
      public String getName() {
        return NAME;
      }
    };
  }
}
