package io.agentteams.mailbox.paging.application;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.paging.domain.PageCursor;
import io.agentteams.mailbox.paging.domain.PageSize;
import io.agentteams.mailbox.paging.domain.SearchFilters;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Pages a team's records newest first by cursor, for every kind of record the mailbox searches (the
 * shared record and the results), to the team's owner, its members and other services. Filters
 * apply before paging. A cursor is anchored to the last record a page returned and bound to the
 * filters it was issued for, so records added meanwhile never shift the next page; a cursor whose
 * anchor is no longer kept answers an empty page that says so. A page reads one record more than it
 * returns to know whether more follow, and stays within the response budget (whole records, except
 * that a first record too large on its own is shortened).
 */
@Component
public class CursorPaging {

  /**
   * One search of one kind of record.
   *
   * @param <R> the records
   * @param <A> where a page ends, as a cursor names it
   * @param <P> the response
   */
  public interface Search<R, A, P> {

    /** The anchor the cursor names; {@link PageCursor#invalid()} when it names none. */
    A anchor(PageCursor cursor);

    /** How a cursor names the place of the record a page ends with. */
    String anchorOf(R record);

    /** Whether the records still hold the anchor. */
    Mono<Boolean> holds(A anchor);

    /** At most {@code limit} records after the anchor, or from the newest without one. */
    Flux<R> after(@Nullable A anchor, int limit);

    /** The response holding these records. */
    P page(List<R> records, @Nullable String nextCursor, boolean cursorExpired);
  }

  private final ResponseBudget budget;
  private final PageSize sizes;
  private final TextBound queryBound;
  private final RosterAccess access;

  public CursorPaging(ResponseBudget budget, MailboxProperties properties, RosterAccess access) {
    this.budget = budget;
    this.sizes = properties.pageSize();
    this.queryBound = properties.queryBound();
    this.access = access;
  }

  /**
   * One page of a search of the team's records, for a reader of its mailbox. The request is checked
   * first (filters, page size, cursor), then the caller's access.
   *
   * @param kind what is searched, e.g. {@code history}; a cursor is bound to it and to the team
   * @param shortener how a record too large on its own is shortened
   * @param search the search with the request's filters
   */
  public <R, A, P> Mono<P> page(
      Caller caller,
      UUID teamId,
      String kind,
      SearchRequest request,
      ResponseBudget.Shortener<R> shortener,
      Function<SearchFilters, Search<R, A, P>> search) {
    return Mono.defer(
        () -> {
          SearchFilters filters =
              SearchFilters.of(request.memberId(), request.jobId(), request.query(), queryBound);
          int size = sizes.resolve(request.limit());
          String fingerprint = filters.fingerprint(kind + ":" + teamId);
          Search<R, A, P> searching = search.apply(filters);
          A anchor =
              request.cursor() == null
                  ? null
                  : searching.anchor(PageCursor.decode(request.cursor(), fingerprint));
          return access
              .check(caller, teamId, MailboxPolicies.READERS)
              .then(anchor == null ? Mono.just(true) : searching.holds(anchor))
              .flatMap(
                  held ->
                      held
                          ? read(searching, anchor, size, fingerprint, shortener)
                          : Mono.just(searching.page(List.of(), null, true)));
        });
  }

  private <R, A, P> Mono<P> read(
      Search<R, A, P> search,
      @Nullable A anchor,
      int size,
      String fingerprint,
      ResponseBudget.Shortener<R> shortener) {
    return search
        .after(anchor, size + 1)
        .collectList()
        .map(
            rows -> {
              List<R> candidates = rows.subList(0, Math.min(size, rows.size()));
              ResponseBudget.Fit<R> fit =
                  budget.fit(
                      candidates,
                      records ->
                          search.page(records, cursorAfter(search, records, fingerprint), false),
                      shortener);
              boolean more = rows.size() > size || fit.cut();
              return search.page(
                  fit.records(),
                  more ? cursorAfter(search, fit.records(), fingerprint) : null,
                  false);
            });
  }

  private static <R> @Nullable String cursorAfter(
      Search<R, ?, ?> search, List<R> records, String fingerprint) {
    if (records.isEmpty()) {
      return null;
    }
    return new PageCursor(search.anchorOf(records.get(records.size() - 1)), fingerprint).encode();
  }
}
