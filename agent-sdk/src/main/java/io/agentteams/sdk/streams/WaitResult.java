package io.agentteams.sdk.streams;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What {@code wait} returned.
 *
 * @param changed false when the time-out passed with no change
 * @param kind roster, mailbox, task or status
 * @param event the event that was the change
 */
public record WaitResult(boolean changed, @Nullable String kind, @Nullable JsonNode event) {}
