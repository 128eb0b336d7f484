package io.agentteams.mailbox.message.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageRead;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.domain.MessageProblems;
import io.agentteams.mailbox.message.persistence.DeliveryStore;
import io.agentteams.mailbox.paging.application.ResponseBudget;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.bounds.Utf8Truncation;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * A member reads what is new in its inbox since its last read: direct messages and broadcasts,
 * oldest first, each once. The read, the {@code read} marks and the cursor's advance commit
 * together, with the member's cursor row locked, so concurrent readers of one member never get the
 * same message twice.
 */
@Service
public class InboxReading {

  private static final ResponseBudget.Shortener<InboxPage.Item> SHORTENER =
      new ResponseBudget.Shortener<>() {
        @Override
        public int textBytes(InboxPage.Item item) {
          return TextBound.utf8Length(item.text());
        }

        @Override
        public InboxPage.Item cut(InboxPage.Item item, int maxBytes) {
          return item.withText(Utf8Truncation.cut(item.text(), maxBytes).text());
        }
      };

  private final RosterAccess access;
  private final DeliveryStore store;
  private final Outbox outbox;
  private final TransactionalOperator transactions;
  private final ResponseBudget budget;
  private final int maxMessages;
  private final Clock clock;

  public InboxReading(
      RosterAccess access,
      DeliveryStore store,
      Outbox outbox,
      TransactionalOperator transactions,
      ResponseBudget budget,
      MailboxProperties properties,
      Clock clock) {
    this.access = access;
    this.store = store;
    this.outbox = outbox;
    this.transactions = transactions;
    this.budget = budget;
    this.maxMessages = properties.inboxMaxMessages();
    this.clock = clock;
  }

  /**
   * Reads the caller's inbox.
   *
   * @param after re-read from this inbox position instead of the member's cursor
   * @param limit the most messages to return (1 to {@code inbox-max-messages}, default that)
   */
  public Mono<InboxPage> read(
      Caller.Member caller, UUID teamId, @Nullable Long after, @Nullable Integer limit) {
    if (after != null && after < 0) {
      return Mono.error(MessageProblems.invalidAfter());
    }
    if (limit != null && (limit < 1 || limit > maxMessages)) {
      return Mono.error(MessageProblems.invalidLimit(maxMessages, limit));
    }
    int size = limit == null ? maxMessages : limit;
    return access
        .check(caller, teamId, MailboxPolicies.MEMBERS)
        .flatMap(
            grant ->
                transactions.transactional(
                    readLocked(teamId, grant.member().name(), grant, after, size)));
  }

  private Mono<InboxPage> readLocked(
      UUID teamId, String member, Grant<Roster> grant, @Nullable Long after, int size) {
    return store
        .lockCursor(teamId, member)
        .flatMap(
            cursor ->
                store
                    .inboxAfter(teamId, member, after == null ? cursor : after, size + 1)
                    .map(InboxReading::item)
                    .collectList()
                    .flatMap(entries -> page(grant, teamId, member, cursor, entries, size)));
  }

  /** The page the entries fill within the budget; the messages it returns are marked read. */
  private Mono<InboxPage> page(
      Grant<Roster> grant,
      UUID teamId,
      String member,
      long cursor,
      List<InboxPage.Item> entries,
      int size) {
    List<InboxPage.Item> candidates = entries.subList(0, Math.min(size, entries.size()));
    ResponseBudget.Fit<InboxPage.Item> fit =
        budget.fit(
            candidates,
            items -> new InboxPage(teamId, member, items, Long.MAX_VALUE, true),
            SHORTENER);
    boolean more = entries.size() > size || fit.cut();
    if (fit.records().isEmpty()) {
      return Mono.just(new InboxPage(teamId, member, List.of(), cursor, false));
    }
    long last = fit.records().get(fit.records().size() - 1).sequence();
    return markRead(grant, teamId, member, cursor, last)
        .map(readCursor -> new InboxPage(teamId, member, fit.records(), readCursor, more));
  }

  private Mono<Long> markRead(
      Grant<Roster> grant, UUID teamId, String member, long readSeq, long upTo) {
    return store
        .markRead(teamId, member, readSeq, upTo)
        .flatMap(
            read ->
                store
                    .advanceCursor(teamId, member, upTo)
                    .flatMap(cursor -> announceRead(grant, teamId, member, read, cursor)));
  }

  /** {@code MessageRead} for the copies this read marked, if it marked any. */
  private Mono<Long> announceRead(
      Grant<Roster> grant,
      UUID teamId,
      String member,
      List<DeliveryStore.ReadCopy> read,
      long cursor) {
    if (read.isEmpty()) {
      return Mono.just(cursor);
    }
    MessageRead event =
        new MessageRead(
            teamId.toString(),
            member,
            read.stream().map(copy -> copy.messageId().toString()).toList(),
            cursor,
            clock.instant().toString());
    return outbox
        .append(Topics.MAILBOX_EVENTS, teamId.toString(), grant.ownerId(), cursor, event)
        .thenReturn(cursor);
  }

  private static InboxPage.Item item(DeliveryStore.InboxEntry entry) {
    Message m = entry.message().message();
    return new InboxPage.Item(
        m.id(),
        entry.sequence(),
        m.kind().wire(),
        m.sender().kind().wire(),
        m.sender().name(),
        m.systemKind() == null ? null : m.systemKind().wire(),
        m.jobId(),
        m.conversationId(),
        entry.message().sentAt(),
        entry.deliveredAt(),
        m.text(),
        false);
  }
}
