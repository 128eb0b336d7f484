package io.agentteams.gateway.routing;

import org.springframework.cloud.gateway.filter.headers.observation.DefaultGatewayObservationConvention;

/**
 * Names the observation of each call a route proxies to a service {@value #NAME} (Prometheus:
 * {@code agentteams_gateway_proxied_requests_seconds}), with the gateway's route tags. Under the
 * library's default name, {@code http.client.requests}, it shared a name with the gateway's own
 * calls to the services, tagged otherwise, and Prometheus's registry kept only whichever came
 * first.
 */
public class ProxiedRequestsConvention extends DefaultGatewayObservationConvention {

  /** The observation's name, and so its meters'. */
  public static final String NAME = "agentteams.gateway.proxied.requests";

  @Override
  public String getName() {
    return NAME;
  }
}
