package io.agentteams.scheduler.support;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads the scheduler's event topic from the beginning, as any other service would. */
public final class SchedulerEvents implements AutoCloseable {

  private final List<EventEnvelope> events = new CopyOnWriteArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread reader;

  public SchedulerEvents(String bootstrapServers, EventCodec codec) {
    KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new StringDeserializer());
    consumer.subscribe(List.of(Topics.SCHEDULER_EVENTS));
    reader =
        new Thread(
            () -> {
              try (consumer) {
                while (running.get()) {
                  for (var record : consumer.poll(Duration.ofMillis(100))) {
                    events.add(codec.read(record.value()));
                  }
                }
              }
            },
            "scheduler-events-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Events about the job, in the order they arrived. */
  public List<EventEnvelope> of(UUID jobId) {
    String id = jobId.toString();
    return events.stream()
        .filter(e -> e.data().has("job_id") && e.data().get("job_id").asString().equals(id))
        .toList();
  }

  /** The states the job's {@code JobStateChanged} events announced, deduplicated by event id. */
  public List<String> states(UUID jobId) {
    return of(jobId).stream()
        .filter(e -> e.type().equals("JobStateChanged"))
        .collect(
            java.util.stream.Collectors.toMap(
                EventEnvelope::eventId, e -> e, (a, b) -> a, java.util.LinkedHashMap::new))
        .values()
        .stream()
        .map(e -> e.data().get("state").asString())
        .toList();
  }

  /** Distinct events of a type about the job. */
  public List<EventEnvelope> ofType(UUID jobId, String type) {
    return of(jobId).stream()
        .filter(e -> e.type().equals(type))
        .collect(
            java.util.stream.Collectors.toMap(
                EventEnvelope::eventId, e -> e, (a, b) -> a, java.util.LinkedHashMap::new))
        .values()
        .stream()
        .toList();
  }

  public List<EventEnvelope> all() {
    return List.copyOf(events);
  }

  @Override
  public void close() {
    running.set(false);
  }
}
