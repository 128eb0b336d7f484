package io.agentteams.mailbox.history.application;

import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A page of the shared record, newest first.
 *
 * @param teamId the team
 * @param records the page's messages
 * @param nextCursor pass it back with the same filters for the next (older) page; null at the end
 * @param cursorExpired true when the cursor's anchor left the retained record: the page is empty
 *     and the search must start again
 */
public record HistoryPage(
    UUID teamId, List<HistoryRecord> records, @Nullable String nextCursor, boolean cursorExpired) {}
