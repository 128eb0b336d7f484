package io.agentteams.gateway.stream;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How team event streams are served.
 *
 * @param windowPerTeam events kept per team for replay after a reconnect
 * @param maxTeams teams whose windows are kept (least recently used beyond that are dropped)
 * @param subscriberBuffer events buffered for one slow subscriber before it is disconnected
 * @param heartbeat the interval of keep-alive comments on idle streams
 */
@Validated
@ConfigurationProperties("agentteams.gateway.stream")
public record StreamProperties(
    @DefaultValue("1000") int windowPerTeam,
    @DefaultValue("10000") int maxTeams,
    @DefaultValue("1024") int subscriberBuffer,
    @DefaultValue("15s") Duration heartbeat) {}
