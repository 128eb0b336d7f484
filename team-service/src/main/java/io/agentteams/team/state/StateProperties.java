package io.agentteams.team.state;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.team.state.domain.StateLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Public state limits, with the defaults DESIGN.md names.
 *
 * @param maxEntries entries per team, archived ones included
 * @param titleMaxChars entry title, characters
 * @param titleMaxBytes entry title, UTF-8 bytes
 * @param contentMaxChars entry content, characters
 * @param contentMaxBytes entry content, UTF-8 bytes
 * @param maxTotalJsonBytes UTF-8 bytes of the JSON array of all of a team's entries
 * @param requestIdMaxChars a publish request id, characters (and bytes)
 */
@Validated
@ConfigurationProperties("agentteams.state")
public record StateProperties(
    @DefaultValue("20") int maxEntries,
    @DefaultValue("80") int titleMaxChars,
    @DefaultValue("160") int titleMaxBytes,
    @DefaultValue("1000") int contentMaxChars,
    @DefaultValue("2000") int contentMaxBytes,
    @DefaultValue("16000") int maxTotalJsonBytes,
    @DefaultValue("128") int requestIdMaxChars) {

  /** The limits as the domain sees them; invalid combinations fail at start-up. */
  public StateLimits limits() {
    return new StateLimits(
        maxEntries,
        new TextBound("state.title", titleMaxChars, titleMaxBytes),
        new TextBound("state.content", contentMaxChars, contentMaxBytes),
        maxTotalJsonBytes,
        new TextBound("state.request-id", requestIdMaxChars, requestIdMaxChars));
  }
}
