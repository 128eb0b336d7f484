package io.agentteams.scheduler.run.persistence;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Measures team runs for operators: unfinished runs by state, and how long the oldest plan has
 * waited for its owner's approval. Read from the database (every replica reports the same figures);
 * the {@code run-metrics} loop of {@link RunLoops} refreshes them.
 */
@Component
public class RunMetrics {

  private static final List<String> UNFINISHED =
      List.of("planning", "awaiting_approval", "running", "synthesising");

  private static final String RUNS =
      """
      SELECT state, count(*) AS runs,
             coalesce(extract(epoch FROM now() - min(updated_at)), 0) AS oldest
      FROM team_run WHERE state IN ('planning', 'awaiting_approval', 'running', 'synthesising')
      GROUP BY state
      """;

  private final DatabaseClient db;
  private final Map<String, AtomicLong> unfinished = new ConcurrentHashMap<>();
  private final AtomicLong oldestAwaitingMillis = new AtomicLong();

  public RunMetrics(DatabaseClient db, MeterRegistry meters) {
    this.db = db;
    for (String state : UNFINISHED) {
      AtomicLong count = new AtomicLong();
      unfinished.put(state, count);
      Gauge.builder("agentteams.scheduler.runs.unfinished", count, AtomicLong::get)
          .tag("state", state)
          .description("Team runs that have not ended, by state, across the deployment")
          .register(meters);
    }
    Gauge.builder(
            "agentteams.scheduler.runs.approval.oldest.seconds",
            oldestAwaitingMillis,
            millis -> millis.get() / 1000.0)
        .description("How long the oldest run's plan has waited for its owner's approval")
        .register(meters);
  }

  /** Measures once. */
  public Mono<Void> refresh() {
    return db.sql(RUNS)
        .map(
            row ->
                Map.entry(
                    row.get("state", String.class),
                    new long[] {
                      row.get("runs", Long.class),
                      (long) (row.get("oldest", Number.class).doubleValue() * 1000)
                    }))
        .all()
        .collectMap(Map.Entry::getKey, Map.Entry::getValue)
        .doOnNext(
            byState -> {
              for (String state : UNFINISHED) {
                long[] figures = byState.get(state);
                unfinished.get(state).set(figures == null ? 0 : figures[0]);
              }
              long[] awaiting = byState.get("awaiting_approval");
              oldestAwaitingMillis.set(awaiting == null ? 0 : awaiting[1]);
            })
        .then();
  }
}
