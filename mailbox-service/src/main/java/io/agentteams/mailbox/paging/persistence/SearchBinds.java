package io.agentteams.mailbox.paging.persistence;

import io.agentteams.mailbox.paging.domain.SearchFilters;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Binds the filters a search uses to its statement: {@code :member}, {@code :job} and {@code
 * :query}, each only when the filter is set (and the statement names it).
 */
public final class SearchBinds {

  private SearchBinds() {}

  public static DatabaseClient.GenericExecuteSpec bind(
      DatabaseClient.GenericExecuteSpec spec, SearchFilters filters) {
    if (filters.memberId() != null) {
      spec = spec.bind("member", filters.memberId());
    }
    if (filters.jobId() != null) {
      spec = spec.bind("job", filters.jobId());
    }
    if (filters.query() != null) {
      spec = spec.bind("query", filters.query());
    }
    return spec;
  }
}
