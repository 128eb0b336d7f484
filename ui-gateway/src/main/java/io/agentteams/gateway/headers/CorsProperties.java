package io.agentteams.gateway.headers;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which web origins other than the gateway's own may call the public API from a browser. Empty (the
 * default): none; browsers refuse cross-origin calls. Bearer tokens, never cookies, are allowed
 * cross-origin.
 *
 * @param allowedOrigins exact origins, e.g. {@code https://app.example.com}
 */
@ConfigurationProperties("agentteams.gateway.cors")
public record CorsProperties(@DefaultValue List<String> allowedOrigins) {}
