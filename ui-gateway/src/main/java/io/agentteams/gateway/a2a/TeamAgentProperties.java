package io.agentteams.gateway.a2a;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Bounds of the teams' A2A endpoints.
 *
 * @param sendWait the longest a blocking SendMessage waits for its task to end or stop for input
 *     before it answers with the task as it is then
 * @param streamLimit the longest one SendStreamingMessage or SubscribeToTask stream stays open; a
 *     client resubscribes to follow on
 * @param heartbeat how often an idle stream carries a comment, so proxies keep it open
 * @param tokenTtl how long a team-scoped A2A token an owner mints lives
 */
@Validated
@ConfigurationProperties("agentteams.gateway.a2a")
public record TeamAgentProperties(
    @DefaultValue("60s") Duration sendWait,
    @DefaultValue("30m") Duration streamLimit,
    @DefaultValue("15s") Duration heartbeat,
    @DefaultValue("30d") Duration tokenTtl) {}
