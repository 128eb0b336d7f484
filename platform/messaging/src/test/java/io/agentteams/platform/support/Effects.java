package io.agentteams.platform.support;

import io.agentteams.platform.consumer.EventHandler;
import java.util.List;

/** An effect a consumer applies: one row per event in {@code effect_log}, without any dedupe. */
public final class Effects {

  private final PlatformFixture fixture;

  public Effects(PlatformFixture fixture) {
    this.fixture = fixture;
  }

  public EventHandler logAs(String consumer) {
    return event -> {
      TestEvent data = fixture.codec.data(event, TestEvent.class);
      return fixture
          .db
          .sql(
              "INSERT INTO effect_log (consumer, event_id, team_id, sequence)"
                  + " VALUES (:consumer, :eventId, :team, :sequence)")
          .bind("consumer", consumer)
          .bind("eventId", event.eventId())
          .bind("team", data.key())
          .bind("sequence", data.position())
          .fetch()
          .rowsUpdated()
          .then();
    };
  }

  public long count(String consumer) {
    return fixture
        .db
        .sql("SELECT count(*) AS n FROM effect_log WHERE consumer = :consumer")
        .bind("consumer", consumer)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  public long distinctEvents(String consumer) {
    return fixture
        .db
        .sql("SELECT count(DISTINCT event_id) AS n FROM effect_log WHERE consumer = :consumer")
        .bind("consumer", consumer)
        .map(row -> row.get("n", Long.class))
        .one()
        .block();
  }

  /** The positions applied for a key, in the order they were applied. */
  public List<Long> appliedOrder(String consumer, String key) {
    return fixture
        .db
        .sql(
            "SELECT sequence FROM effect_log WHERE consumer = :consumer AND team_id = :key"
                + " ORDER BY applied_at, sequence")
        .bind("consumer", consumer)
        .bind("key", key)
        .map(row -> row.get("sequence", Long.class))
        .all()
        .collectList()
        .block();
  }
}
