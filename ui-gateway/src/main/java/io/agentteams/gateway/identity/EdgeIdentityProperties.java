package io.agentteams.gateway.identity;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's built-in development identity. The keys of public tokens live in {@code
 * agentteams.identity.*} (shared with the services that mint such tokens).
 *
 * @param devIdentityEnabled whether {@code POST /dev/tokens} hands out owner tokens to anyone who
 *     asks: the embedded stack's development identity, off by default
 * @param devTokenTtl how long a development owner token lives
 */
@Validated
@ConfigurationProperties("agentteams.gateway.identity")
public record EdgeIdentityProperties(
    @DefaultValue("false") boolean devIdentityEnabled, @DefaultValue("12h") Duration devTokenTtl) {}
