package io.agentteams.platform.support;

import io.agentteams.platform.event.EventEnvelope;
import reactor.core.publisher.Mono;

/** Writes test events the way a service does: the change and its outbox row in one transaction. */
public final class Writers {

  private final PlatformFixture fixture;

  public Writers(PlatformFixture fixture) {
    this.fixture = fixture;
  }

  /**
   * Allocates the key's next position (a row lock on the key, as a service locks its aggregate) and
   * appends the event in the same transaction.
   */
  public Mono<EventEnvelope> write(String topic, String key, String filler) {
    return fixture.transactions.transactional(writeInTransaction(topic, key, filler));
  }

  /** {@link #write} within the caller's transaction. */
  public Mono<EventEnvelope> writeInTransaction(String topic, String key, String filler) {
    return nextPosition(key)
        .flatMap(
            position ->
                fixture.outbox.append(
                    topic, key, "owner-1", position, new TestEvent(key, position, filler)));
  }

  public Mono<Long> nextPosition(String key) {
    return fixture
        .db
        .sql(
            """
            INSERT INTO key_sequence (key, value) VALUES (:key, 0)
            ON CONFLICT (key) DO UPDATE SET value = key_sequence.value + 1
            RETURNING value
            """)
        .bind("key", key)
        .map(row -> row.get("value", Long.class))
        .one();
  }
}
