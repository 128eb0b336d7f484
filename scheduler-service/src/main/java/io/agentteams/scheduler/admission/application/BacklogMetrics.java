package io.agentteams.scheduler.admission.application;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Measures the work waiting across the deployment, for operators: jobs waiting for their owner's
 * answer, and how long the oldest queued job has waited. Read from the database (every replica
 * reports the same figures); the {@code backlog-metrics} loop of {@link AdmissionLoops} refreshes
 * them.
 */
@Component
public class BacklogMetrics {

  private static final String BACKLOG =
      """
      SELECT count(*) FILTER (WHERE state = 'waiting_input') AS waiting_input,
             coalesce(extract(epoch FROM now() - min(queued_at) FILTER (WHERE state = 'queued')), 0)
               AS oldest_queued
      FROM job WHERE state IN ('queued', 'waiting_input')
      """;

  private final DatabaseClient db;
  private final AtomicLong waitingInput = new AtomicLong();
  private final AtomicLong oldestQueuedMillis = new AtomicLong();

  public BacklogMetrics(DatabaseClient db, MeterRegistry meters) {
    this.db = db;
    Gauge.builder("agentteams.scheduler.jobs.waiting.input", waitingInput, AtomicLong::get)
        .description("Jobs waiting for their owner's answer, across the deployment")
        .register(meters);
    Gauge.builder(
            "agentteams.scheduler.queue.oldest.seconds",
            oldestQueuedMillis,
            millis -> millis.get() / 1000.0)
        .description("How long the oldest queued job has waited")
        .register(meters);
  }

  /** Measures once. */
  public Mono<Void> refresh() {
    return db.sql(BACKLOG)
        .map(
            row -> {
              waitingInput.set(row.get("waiting_input", Long.class));
              Number oldest = row.get("oldest_queued", Number.class);
              oldestQueuedMillis.set(oldest == null ? 0 : (long) (oldest.doubleValue() * 1000));
              return true;
            })
        .one()
        .then();
  }
}
