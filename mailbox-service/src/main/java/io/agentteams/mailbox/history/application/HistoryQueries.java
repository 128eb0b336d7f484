package io.agentteams.mailbox.history.application;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.history.persistence.HistoryStore;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.mailbox.paging.application.ResponseBudget;
import io.agentteams.mailbox.paging.domain.PageCursor;
import io.agentteams.mailbox.paging.domain.PageSize;
import io.agentteams.mailbox.paging.domain.SearchFilters;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.bounds.Utf8Truncation;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

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
  private final PageSize pageSize;
  private final MailboxProperties properties;

  public HistoryQueries(
      RosterAccess access,
      HistoryStore history,
      MessageStore messages,
      JsonMapper json,
      MailboxProperties properties) {
    this.access = access;
    this.history = history;
    this.messages = messages;
    this.budget = new ResponseBudget(json, properties.responseMaxBytes());
    this.pageSize = properties.pageSize();
    this.properties = properties;
  }

  /** Filters for a history read, with the query checked against its bound. */
  public SearchFilters filters(
      @Nullable String memberId, @Nullable String jobId, @Nullable String query) {
    return SearchFilters.of(memberId, jobId, query, properties.queryBound());
  }

  /**
   * One page of the shared record.
   *
   * @param limit records per page, 1 to the maximum (default 8)
   * @param cursor the previous page's {@code next_cursor}, issued for the same filters
   */
  public Mono<HistoryPage> page(
      Caller caller,
      UUID teamId,
      SearchFilters filters,
      @Nullable Integer limit,
      @Nullable String cursor) {
    return Mono.defer(
        () -> {
          int size = pageSize.resolve(limit);
          String fingerprint = filters.fingerprint("history:" + teamId);
          Anchor anchor = cursor == null ? null : Anchor.of(PageCursor.decode(cursor, fingerprint));
          return access
              .check(caller, teamId, MailboxPolicies.READERS)
              .then(anchor == null ? Mono.just(true) : retained(teamId, anchor))
              .flatMap(
                  retained ->
                      retained
                          ? read(teamId, filters, size, anchor, fingerprint)
                          : Mono.just(new HistoryPage(teamId, List.of(), null, true)));
        });
  }

  /** The newest messages for the team context, newest first, within the response budget. */
  public Mono<RecentMessages> recent(Caller caller, UUID teamId) {
    return access
        .check(caller, teamId, MailboxPolicies.READERS)
        .thenMany(messages.newest(teamId, properties.contextMessages()))
        .map(recorded -> HistoryRecord.of(recorded, properties.textMaxBytes()))
        .collectList()
        .map(
            records ->
                new RecentMessages(
                    teamId,
                    budget
                        .fit(records, fitted -> new RecentMessages(teamId, fitted), SHORTENER)
                        .records()));
  }

  private Mono<Boolean> retained(UUID teamId, Anchor anchor) {
    return history.retains(teamId, properties.historySize(), anchor.sequence(), anchor.messageId());
  }

  private Mono<HistoryPage> read(
      UUID teamId, SearchFilters filters, int size, @Nullable Anchor anchor, String fingerprint) {
    long before = anchor == null ? Long.MAX_VALUE : anchor.sequence();
    return history
        .page(teamId, properties.historySize(), before, filters, size + 1)
        .map(recorded -> HistoryRecord.of(recorded, properties.textMaxBytes()))
        .collectList()
        .map(
            rows -> {
              List<HistoryRecord> candidates = rows.subList(0, Math.min(size, rows.size()));
              ResponseBudget.Fit<HistoryRecord> fit =
                  budget.fit(
                      candidates,
                      records ->
                          new HistoryPage(
                              teamId, records, cursorAfter(records, fingerprint), false),
                      SHORTENER);
              boolean more = rows.size() > size || fit.cut();
              return new HistoryPage(
                  teamId,
                  fit.records(),
                  more ? cursorAfter(fit.records(), fingerprint) : null,
                  false);
            });
  }

  private static @Nullable String cursorAfter(List<HistoryRecord> records, String fingerprint) {
    if (records.isEmpty()) {
      return null;
    }
    HistoryRecord last = records.get(records.size() - 1);
    return new PageCursor(last.sequence() + ":" + last.messageId(), fingerprint).encode();
  }

  private record Anchor(long sequence, UUID messageId) {

    static Anchor of(PageCursor cursor) {
      List<String> parts = cursor.anchorParts();
      try {
        return new Anchor(Long.parseLong(parts.get(0)), UUID.fromString(parts.get(1)));
      } catch (IllegalArgumentException e) {
        throw PageCursor.invalid();
      }
    }
  }
}
