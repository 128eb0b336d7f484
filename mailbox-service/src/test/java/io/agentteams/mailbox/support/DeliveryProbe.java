package io.agentteams.mailbox.support;

import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;

/** What the delivery table says, for waiting until copies arrived. */
public final class DeliveryProbe {

  private final DatabaseClient db;

  public DeliveryProbe(DatabaseClient db) {
    this.db = db;
  }

  /** Copies of the team's messages that are still queued. */
  public long queued(UUID team) {
    return count(team, "status = 'queued'");
  }

  /** Copies of the team's messages that reached an inbox (delivered or read). */
  public long delivered(UUID team) {
    return count(team, "status <> 'queued'");
  }

  private long count(UUID team, String condition) {
    return db.sql("SELECT count(*) AS n FROM delivery WHERE team_id = :team AND " + condition)
        .bind("team", team)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }
}
