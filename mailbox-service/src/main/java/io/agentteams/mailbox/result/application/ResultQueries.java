package io.agentteams.mailbox.result.application;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.paging.application.CursorPaging;
import io.agentteams.mailbox.paging.application.ResponseBudget;
import io.agentteams.mailbox.paging.application.SearchRequest;
import io.agentteams.mailbox.paging.domain.PageCursor;
import io.agentteams.mailbox.paging.domain.SearchFilters;
import io.agentteams.mailbox.result.domain.ResultProblems;
import io.agentteams.mailbox.result.persistence.ResultStore;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Searches result records newest request first and reads one. Cursors anchor to the last record a
 * page returned (its creation time and job id); pages are live, so a job that finishes later with
 * an older request may appear on a later page. Every response stays within the byte budget.
 */
@Service
public class ResultQueries {

  private static final ResponseBudget.Shortener<ResultViews.Summary> SUMMARY_SHORTENER =
      new ResponseBudget.Shortener<>() {
        @Override
        public int textBytes(ResultViews.Summary summary) {
          return TextBound.utf8Length(summary.answer().text());
        }

        @Override
        public ResultViews.Summary cut(ResultViews.Summary s, int maxBytes) {
          // Both excerpts share the room: a summary too large alone is all escapes.
          return new ResultViews.Summary(
              s.jobId(),
              s.member(),
              s.requester(),
              s.status(),
              s.parentJobId(),
              s.createdAt(),
              s.finishedAt(),
              s.request().cut(maxBytes),
              s.answer().cut(maxBytes));
        }
      };

  private static final ResponseBudget.Shortener<ResultViews.Detail> DETAIL_SHORTENER =
      new ResponseBudget.Shortener<>() {
        @Override
        public int textBytes(ResultViews.Detail detail) {
          return TextBound.utf8Length(detail.answer().text());
        }

        @Override
        public ResultViews.Detail cut(ResultViews.Detail detail, int maxBytes) {
          return detail.withAnswer(detail.answer().cut(maxBytes));
        }
      };

  private final RosterAccess access;
  private final ResultStore results;
  private final ResponseBudget budget;
  private final CursorPaging paging;
  private final MailboxProperties properties;

  public ResultQueries(
      RosterAccess access,
      ResultStore results,
      ResponseBudget budget,
      CursorPaging paging,
      MailboxProperties properties) {
    this.access = access;
    this.results = results;
    this.budget = budget;
    this.paging = paging;
    this.properties = properties;
  }

  /** One page of result summaries. */
  public Mono<ResultViews.Page> search(Caller caller, UUID teamId, SearchRequest request) {
    return paging.page(
        caller, teamId, "results", request, SUMMARY_SHORTENER, filters -> search(teamId, filters));
  }

  /** One result in full; 404 when the team has no record of the job. */
  public Mono<ResultViews.Detail> read(Caller caller, UUID teamId, String jobId) {
    return access
        .check(caller, teamId, MailboxPolicies.READERS)
        .then(results.find(teamId, jobId))
        .switchIfEmpty(Mono.error(ResultProblems.resultNotFound(jobId)))
        .map(
            record ->
                budget.fitOne(
                    ResultViews.Detail.of(
                        record, properties.excerptMaxBytes(), properties.textMaxBytes()),
                    detail -> detail,
                    DETAIL_SHORTENER));
  }

  /** A team's result records, newest request first, as the filters select them. */
  private CursorPaging.Search<ResultViews.Summary, ResultStore.Position, ResultViews.Page> search(
      UUID teamId, SearchFilters filters) {
    return new CursorPaging.Search<>() {
      @Override
      public ResultStore.Position anchor(PageCursor cursor) {
        List<String> parts = cursor.anchorParts();
        try {
          Instant createdAt = Instant.EPOCH.plus(Long.parseLong(parts.get(0)), ChronoUnit.MICROS);
          return new ResultStore.Position(createdAt, parts.get(1));
        } catch (IllegalArgumentException | ArithmeticException e) {
          throw PageCursor.invalid();
        }
      }

      @Override
      public String anchorOf(ResultViews.Summary summary) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, summary.createdAt())
            + ":"
            + summary.jobId();
      }

      @Override
      public Mono<Boolean> holds(ResultStore.Position anchor) {
        return results
            .find(teamId, anchor.jobId())
            .map(record -> record.createdAt().equals(anchor.createdAt()))
            .defaultIfEmpty(false);
      }

      @Override
      public Flux<ResultViews.Summary> after(ResultStore.@Nullable Position anchor, int limit) {
        return results
            .page(teamId, filters, anchor, limit)
            .map(record -> ResultViews.Summary.of(record, properties.excerptMaxBytes()));
      }

      @Override
      public ResultViews.Page page(
          List<ResultViews.Summary> summaries, @Nullable String nextCursor, boolean expired) {
        return new ResultViews.Page(teamId, summaries, nextCursor, expired);
      }
    };
  }
}
