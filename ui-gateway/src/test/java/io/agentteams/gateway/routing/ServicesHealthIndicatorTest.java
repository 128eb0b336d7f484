package io.agentteams.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Where one database serves every service (the embedded stack), the gateway is ready only while its
 * services are: a dead database makes them unready, and the gateway with them.
 */
class ServicesHealthIndicatorTest {

  private final AtomicInteger readiness = new AtomicInteger(200);
  private HttpServer services;

  private URI start() throws Exception {
    services = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    services.createContext(
        "/actuator/health/readiness",
        exchange -> {
          exchange.sendResponseHeaders(readiness.get(), -1);
          exchange.close();
        });
    services.start();
    return URI.create("http://127.0.0.1:" + services.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    if (services != null) {
      services.stop(0);
    }
  }

  @Test
  void aServiceThatIsNotReadyMakesTheGatewayUnreadyWhenChecked() throws Exception {
    URI all = start();
    ServicesHealthIndicator indicator =
        new ServicesHealthIndicator(
            WebClient.builder(), new ServiceEndpoints(all, all, all, all), true);

    assertThat(health(indicator).getStatus()).isEqualTo(Status.UP);
    readiness.set(503);
    Health down = health(indicator);
    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
    assertThat(down.getDetails()).containsEntry("scheduler-service", "DOWN");
  }

  @Test
  void anUnreachableServiceIsDownAndUncheckedReadinessIsUp() throws Exception {
    URI nowhere = start();
    services.stop(0);
    services = null;
    ServiceEndpoints endpoints = new ServiceEndpoints(nowhere, nowhere, nowhere, nowhere);

    assertThat(
            health(new ServicesHealthIndicator(WebClient.builder(), endpoints, true)).getStatus())
        .isEqualTo(Status.DOWN);
    assertThat(
            health(new ServicesHealthIndicator(WebClient.builder(), endpoints, false)).getStatus())
        .as("production: each service's own readiness decides its traffic")
        .isEqualTo(Status.UP);
  }

  private static Health health(ServicesHealthIndicator indicator) {
    return indicator.health(true).block(Duration.ofSeconds(10));
  }
}
