package io.agentteams.gateway.routing;

import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the services listen, as the gateway reaches them inside the cluster.
 *
 * @param team team-service
 * @param mailbox mailbox-service
 * @param taskBoard task-board-service
 * @param scheduler scheduler-service
 */
@Validated
@ConfigurationProperties("agentteams.gateway.services")
public record ServiceEndpoints(
    @DefaultValue("http://127.0.0.1:8081") URI team,
    @DefaultValue("http://127.0.0.1:8082") URI mailbox,
    @DefaultValue("http://127.0.0.1:8083") URI taskBoard,
    @DefaultValue("http://127.0.0.1:8084") URI scheduler) {}
