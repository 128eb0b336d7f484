package io.agentteams.sdk.tasks;

import org.jspecify.annotations.Nullable;

/**
 * A board's settings.
 *
 * @param claimTimeoutSeconds the team's own claim time-out, null for the default
 * @param effectiveClaimTimeoutSeconds the claim time-out in force
 * @param revision the settings' revision
 */
public record BoardSettings(
    @Nullable Long claimTimeoutSeconds, long effectiveClaimTimeoutSeconds, long revision) {}
