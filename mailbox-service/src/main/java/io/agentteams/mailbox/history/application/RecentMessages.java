package io.agentteams.mailbox.history.application;

import java.util.List;
import java.util.UUID;

/**
 * The newest messages of a team, newest first, for the gateway's team context. Older messages are
 * left out first when the response budget is short.
 *
 * @param teamId the team
 * @param messages the messages
 */
public record RecentMessages(UUID teamId, List<HistoryRecord> messages) {}
