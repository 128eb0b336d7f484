package io.agentteams.gateway.context;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits of {@code read_team_context}.
 *
 * @param maxBytes the whole answer, as UTF-8 JSON including escaping
 * @param maxMessages how many of the newest messages it offers at most
 */
@Validated
@ConfigurationProperties("agentteams.gateway.context")
public record TeamContextProperties(
    @DefaultValue("24000") int maxBytes, @DefaultValue("8") int maxMessages) {

  public TeamContextProperties {
    if (maxBytes < 4096 || maxMessages < 0) {
      throw new IllegalArgumentException(
          "agentteams.gateway.context: max-bytes must be at least 4096, max-messages at least 0");
    }
  }
}
