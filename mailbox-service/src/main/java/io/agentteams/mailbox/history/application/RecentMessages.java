package io.agentteams.mailbox.history.application;

import java.util.List;
import java.util.UUID;

/**
 * The newest messages of a team, newest first, for the gateway's team context. Older messages are
 * left out first when the response budget is short, and counted, so the context can say how many
 * are missing.
 *
 * @param teamId the team
 * @param messages the messages
 * @param omitted how many of the newest messages asked for were left out for lack of room
 */
public record RecentMessages(UUID teamId, List<HistoryRecord> messages, int omitted) {}
