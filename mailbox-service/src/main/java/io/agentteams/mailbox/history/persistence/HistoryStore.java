package io.agentteams.mailbox.history.persistence;

import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.persistence.MessageRows;
import io.agentteams.mailbox.paging.domain.SearchFilters;
import io.agentteams.mailbox.paging.persistence.SearchBinds;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads the shared record: a team's messages whose sequence lies within the newest {@code
 * retained}. Older messages have rotated out of it (they stay stored only while an inbox needs
 * them).
 */
@Repository
public class HistoryStore {

  private static final String FLOOR =
      "coalesce((SELECT last_message_seq FROM team_mailbox WHERE team_id = :team), 0) - :retained";

  private final DatabaseClient db;

  public HistoryStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Retained messages older than {@code before} that pass the filters, newest first. A member
   * filter matches what the member sent and direct messages to it.
   */
  public Flux<Message.Recorded> page(
      UUID teamId, int retained, long before, SearchFilters filters, int limit) {
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(MessageRows.COLUMNS)
            .append(" FROM message m WHERE m.team_id = :team AND m.seq < :before AND m.seq > ")
            .append(FLOOR);
    if (filters.memberId() != null) {
      sql.append(" AND (m.sender = :member OR (m.kind = 'direct' AND m.recipients[1] = :member))");
    }
    if (filters.jobId() != null) {
      sql.append(" AND m.job_id = :job");
    }
    if (filters.query() != null) {
      sql.append(" AND strpos(lower(m.text), lower(:query)) > 0");
    }
    sql.append(" ORDER BY m.seq DESC LIMIT :limit");
    DatabaseClient.GenericExecuteSpec spec =
        db.sql(sql.toString())
            .bind("team", teamId)
            .bind("retained", retained)
            .bind("before", before)
            .bind("limit", limit);
    return SearchBinds.bind(spec, filters).map(MessageRows::recorded).all();
  }

  /** Whether the message is still at that sequence and within the retained window. */
  public Mono<Boolean> retains(UUID teamId, int retained, long sequence, UUID messageId) {
    return db.sql(
            "SELECT count(*) AS n FROM message WHERE team_id = :team AND seq = :seq AND id = :id"
                + " AND seq > "
                + FLOOR)
        .bind("team", teamId)
        .bind("seq", sequence)
        .bind("id", messageId)
        .bind("retained", retained)
        .map(row -> row.get("n", Long.class) > 0)
        .one();
  }
}
