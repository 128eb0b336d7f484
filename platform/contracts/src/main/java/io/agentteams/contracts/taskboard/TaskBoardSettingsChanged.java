package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * A team's board settings changed.
 *
 * @param claimTimeoutSeconds the team's own claim time-out, or null when it follows the configured
 *     default
 * @param effectiveClaimTimeoutSeconds the claim time-out in force
 */
public record TaskBoardSettingsChanged(
    String teamId,
    @Nullable Long claimTimeoutSeconds,
    long effectiveClaimTimeoutSeconds,
    String changedBy,
    long revision)
    implements EventPayload {

  public static final String TYPE = "TaskBoardSettingsChanged";

  @Override
  public String eventType() {
    return TYPE;
  }
}
