package io.agentteams.team.agents;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.team.agents.domain.AgentLimits;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Agent catalog limits.
 *
 * @param nameMaxChars agent name, characters
 * @param nameMaxBytes agent name, UTF-8 bytes
 * @param descriptionMaxChars description, characters
 * @param descriptionMaxBytes description, UTF-8 bytes
 * @param maxToolGroups tool groups per agent
 * @param endpointMaxBytes endpoint URL, UTF-8 bytes
 * @param maxAgentsPerOwner agents one owner may register
 * @param searchDefaultLimit agents per search page when the caller names no limit
 * @param searchMaxLimit the largest page a caller may ask for
 * @param webhookSecretOverlap how long a webhook agent's previous signing secret is still signed
 *     with after a rotation
 * @param webhookSecretUpgradeInterval how often stored secrets still in plaintext or under an older
 *     at-rest key are encrypted with the current key (also once at start)
 */
@Validated
@ConfigurationProperties("agentteams.agent")
public record AgentProperties(
    @DefaultValue("80") int nameMaxChars,
    @DefaultValue("160") int nameMaxBytes,
    @DefaultValue("2000") int descriptionMaxChars,
    @DefaultValue("4000") int descriptionMaxBytes,
    @DefaultValue("16") int maxToolGroups,
    @DefaultValue("2048") int endpointMaxBytes,
    @DefaultValue("200") int maxAgentsPerOwner,
    @DefaultValue("20") int searchDefaultLimit,
    @DefaultValue("100") int searchMaxLimit,
    @DefaultValue("24h") Duration webhookSecretOverlap,
    @DefaultValue("10m") Duration webhookSecretUpgradeInterval) {

  public AgentProperties {
    if (searchDefaultLimit < 1 || searchMaxLimit < searchDefaultLimit) {
      throw new IllegalArgumentException(
          "agentteams.agent search limits must satisfy 1 <= default <= max");
    }
  }

  /** The limits as the domain sees them; invalid combinations fail at start-up. */
  public AgentLimits limits() {
    return new AgentLimits(
        new TextBound("agent.name", nameMaxChars, nameMaxBytes),
        new TextBound("agent.description", descriptionMaxChars, descriptionMaxBytes),
        maxToolGroups,
        endpointMaxBytes,
        maxAgentsPerOwner);
  }
}
