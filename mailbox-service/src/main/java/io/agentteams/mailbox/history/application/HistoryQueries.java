package io.agentteams.mailbox.history.application;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.history.persistence.HistoryStore;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.mailbox.paging.application.CursorPaging;
import io.agentteams.mailbox.paging.application.ResponseBudget;
import io.agentteams.mailbox.paging.application.SearchRequest;
import io.agentteams.mailbox.paging.domain.PageCursor;
import io.agentteams.mailbox.paging.domain.SearchFilters;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.bounds.Utf8Truncation;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Pages through the shared record newest first. Filters apply before paging; a cursor is anchored
 * to the last record a page returned (its sequence and message id), so messages sent meanwhile
 * never shift the next page. Every response stays within the byte budget.
 */
@Service
public class HistoryQueries {

  private static final ResponseBudget.Shortener<HistoryRecord> SHORTENER =
      new ResponseBudget.Shortener<>() {
        @Override
        public int textBytes(HistoryRecord record) {
          return TextBound.utf8Length(record.text());
        }

        @Override
        public HistoryRecord cut(HistoryRecord record, int maxBytes) {
          return record.withText(Utf8Truncation.cut(record.text(), maxBytes).text());
        }
      };

  private final RosterAccess access;
  private final HistoryStore history;
  private final MessageStore messages;
  private final ResponseBudget budget;
  private final CursorPaging paging;
  private final MailboxProperties properties;

  public HistoryQueries(
      RosterAccess access,
      HistoryStore history,
      MessageStore messages,
      ResponseBudget budget,
      CursorPaging paging,
      MailboxProperties properties) {
    this.access = access;
    this.history = history;
    this.messages = messages;
    this.budget = budget;
    this.paging = paging;
    this.properties = properties;
  }

  /** One page of the shared record. */
  public Mono<HistoryPage> page(Caller caller, UUID teamId, SearchRequest request) {
    return paging.page(
        caller, teamId, "history", request, SHORTENER, filters -> search(teamId, filters));
  }

  /** The newest messages for the team context, newest first, within the response budget. */
  public Mono<RecentMessages> recent(Caller caller, UUID teamId) {
    return access
        .check(caller, teamId, MailboxPolicies.READERS)
        .thenMany(messages.newest(teamId, properties.contextMessages()))
        .map(recorded -> HistoryRecord.of(recorded, properties.textMaxBytes()))
        .collectList()
        .map(
            records -> {
              List<HistoryRecord> fitted =
                  budget
                      .fit(
                          records,
                          kept -> new RecentMessages(teamId, kept, records.size()),
                          SHORTENER)
                      .records();
              return new RecentMessages(teamId, fitted, records.size() - fitted.size());
            });
  }

  /** The shared record of one team, newest first, as the filters select it. */
  private CursorPaging.Search<HistoryRecord, Anchor, HistoryPage> search(
      UUID teamId, SearchFilters filters) {
    return new CursorPaging.Search<>() {
      @Override
      public Anchor anchor(PageCursor cursor) {
        List<String> parts = cursor.anchorParts();
        try {
          return new Anchor(Long.parseLong(parts.get(0)), UUID.fromString(parts.get(1)));
        } catch (IllegalArgumentException e) {
          throw PageCursor.invalid();
        }
      }

      @Override
      public String anchorOf(HistoryRecord record) {
        return record.sequence() + ":" + record.messageId();
      }

      @Override
      public Mono<Boolean> holds(Anchor anchor) {
        return history.retains(
            teamId, properties.historySize(), anchor.sequence(), anchor.messageId());
      }

      @Override
      public Flux<HistoryRecord> after(@Nullable Anchor anchor, int limit) {
        long before = anchor == null ? Long.MAX_VALUE : anchor.sequence();
        return history
            .page(teamId, properties.historySize(), before, filters, limit)
            .map(recorded -> HistoryRecord.of(recorded, properties.textMaxBytes()));
      }

      @Override
      public HistoryPage page(
          List<HistoryRecord> records, @Nullable String nextCursor, boolean cursorExpired) {
        return new HistoryPage(teamId, records, nextCursor, cursorExpired);
      }
    };
  }

  /** Where a page of the record ends: the last message's sequence and id. */
  private record Anchor(long sequence, UUID messageId) {}
}
