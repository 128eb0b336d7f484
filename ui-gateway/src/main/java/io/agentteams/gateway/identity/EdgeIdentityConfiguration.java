package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.CallerTokens;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The token codecs at the edge: public tokens in, internal tokens out. */
@Configuration(proxyBeanMethods = false)
public class EdgeIdentityConfiguration {

  @Bean
  PublicTokens publicTokens(EdgeIdentityProperties properties, Clock clock) {
    return new PublicTokens(
        new CallerTokens(
            properties.publicSecret(),
            properties.publicIssuer(),
            properties.publicAudience(),
            clock));
  }
}
