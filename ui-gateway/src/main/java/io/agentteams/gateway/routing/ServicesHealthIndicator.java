package io.agentteams.gateway.routing;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The services behind the gateway, as its readiness sees them ({@code services} in the readiness
 * group). Checked only where one database serves them all and a gateway that answers 503 to every
 * call should not count as ready (the embedded stack, {@code
 * agentteams.gateway.readiness.check-services=true}); elsewhere each service's own readiness
 * decides its traffic, and this reports up without asking.
 */
@Component("servicesHealthIndicator")
public class ServicesHealthIndicator extends AbstractReactiveHealthIndicator {

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final WebClient web;
  private final Map<String, URI> services = new LinkedHashMap<>();
  private final boolean check;

  public ServicesHealthIndicator(
      WebClient.Builder web,
      ServiceEndpoints endpoints,
      @Value("${agentteams.gateway.readiness.check-services:false}") boolean check) {
    super("the services' readiness could not be read");
    this.web = web.build();
    this.check = check;
    services.put("team-service", endpoints.team());
    services.put("mailbox-service", endpoints.mailbox());
    services.put("task-board-service", endpoints.taskBoard());
    services.put("scheduler-service", endpoints.scheduler());
  }

  @Override
  protected Mono<Health> doHealthCheck(Health.Builder builder) {
    if (!check) {
      return Mono.just(builder.up().withDetail("checked", false).build());
    }
    return Flux.fromIterable(services.entrySet())
        .flatMapSequential(
            service ->
                web.get()
                    .uri(service.getValue().resolve("/actuator/health/readiness"))
                    .exchangeToMono(
                        response ->
                            response
                                .releaseBody()
                                .thenReturn(
                                    response.statusCode().is2xxSuccessful() ? "UP" : "DOWN"))
                    .timeout(TIMEOUT)
                    .onErrorReturn("UNREACHABLE")
                    .map(status -> Map.entry(service.getKey(), status)))
        .collectList()
        .map(
            statuses -> {
              boolean up = statuses.stream().allMatch(entry -> entry.getValue().equals("UP"));
              (up ? builder.up() : builder.down()).withDetail("checked", true);
              statuses.forEach(entry -> builder.withDetail(entry.getKey(), entry.getValue()));
              return builder.build();
            });
  }
}
