package io.agentteams.sdk.messages;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Reads what is new in one member's inbox, each read acknowledging the one before, so each message
 * reaches the reader at least once even if an answer is lost, and once unless the reader takes
 * longer than the lease between two reads (then another read of the member may get it too). Call
 * {@link #acknowledge} when done, or the last read's messages come back to a later reader. One
 * reader per thread of reading; not for concurrent use.
 */
public final class InboxReader {

  private final Mailbox mailbox;
  private final UUID teamId;
  private @Nullable String pending;

  InboxReader(Mailbox mailbox, UUID teamId) {
    this.mailbox = mailbox;
    this.teamId = teamId;
  }

  /**
   * The next messages, acknowledging the previous read's. If the call fails, calling again is safe:
   * it acknowledges the same read, and messages of an answer that never arrived come back.
   *
   * @param limit at most this many; null for the default
   */
  public synchronized InboxPage next(@Nullable Integer limit) {
    InboxPage page = mailbox.read(teamId, pending, limit);
    pending = page.leaseId();
    return page;
  }

  /** Acknowledges the last read's messages now, if it returned any. */
  public synchronized void acknowledge() {
    if (pending != null) {
      mailbox.acknowledge(teamId, pending);
      pending = null;
    }
  }
}
