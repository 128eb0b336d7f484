package io.agentteams.gateway.stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

/**
 * Reads a team's missed events back from the broker for a resume older than the team's window —
 * typically at a replica that was just restarted, whose window begins where it started reading. A
 * consumer of its own per resume (no group, nothing committed) reads the team's partitions over the
 * missing offsets and keeps the team's records. Bounded: at most {@code replay-concurrency} at
 * once, each within {@code replay-timeout} (waiting included) and {@code replay-max-bytes} read;
 * past a bound, or when retention already deleted part of a range, the resume gets a reset as
 * before.
 */
@Component
public class KafkaEventReplay implements EventReplay {

  private static final Logger log = LoggerFactory.getLogger(KafkaEventReplay.class);

  private final Map<String, Object> config;
  private final StreamProperties properties;
  private final Semaphore turns;
  private final Counter replayed;
  private final Counter retentionPassed;
  private final Counter overBound;
  private final Counter events;
  private final Counter bytesRead;

  public KafkaEventReplay(
      KafkaProperties kafka, StreamProperties properties, MeterRegistry meters) {
    Map<String, Object> config = new LinkedHashMap<>(kafka.buildConsumerProperties());
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "ui-gateway-replay");
    // It reads a known range to its end: a fetch past the records of a partition must not wait.
    config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
    this.config = Map.copyOf(config);
    this.properties = properties;
    this.turns = new Semaphore(properties.replayConcurrency(), true);
    this.replayed = outcome(meters, "replayed");
    this.retentionPassed = outcome(meters, "retention");
    this.overBound = outcome(meters, "bound");
    this.events =
        Counter.builder("agentteams.gateway.stream.replay.events")
            .description("Missed events read back from the broker for resumed streams")
            .register(meters);
    this.bytesRead =
        Counter.builder("agentteams.gateway.stream.replay.read")
            .description("What resumes older than their team's window read from the broker")
            .baseUnit("bytes")
            .register(meters);
  }

  private static Counter outcome(MeterRegistry meters, String outcome) {
    return Counter.builder("agentteams.gateway.stream.replays")
        .description(
            "Resumes older than their team's window, by outcome: replayed from the broker, or a"
                + " reset because retention deleted the events or the replay passed its bounds")
        .tag("outcome", outcome)
        .register(meters);
  }

  @Override
  public Optional<List<Missed>> missed(String teamId, List<Range> ranges) {
    long deadline = System.nanoTime() + properties.replayTimeout().toNanos();
    try {
      if (!turns.tryAcquire(properties.replayTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
        overBound.increment();
        return Optional.empty();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
    try {
      return read(teamId, ranges, deadline);
    } catch (KafkaException e) {
      log.warn("could not read missed events of team {} back from the broker", teamId, e);
      overBound.increment();
      return Optional.empty();
    } finally {
      turns.release();
    }
  }

  private Optional<List<Missed>> read(String teamId, List<Range> ranges, long deadline) {
    Map<TopicPartition, Range> byPartition = new HashMap<>();
    ranges.forEach(range -> byPartition.put(range.partition(), range));
    long maxBytes = properties.replayMaxBytes().toBytes();
    List<Missed> found = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.assign(byPartition.keySet());
      Map<TopicPartition, Long> earliest =
          consumer.beginningOffsets(byPartition.keySet(), remaining(deadline));
      for (Range range : ranges) {
        if (earliest.getOrDefault(range.partition(), Long.MAX_VALUE) > range.from()) {
          retentionPassed.increment();
          return Optional.empty();
        }
        consumer.seek(range.partition(), range.from());
      }
      // A range never reaches past the log's end (a window starts at most there), but should it,
      // what is not there is not waited for.
      Map<TopicPartition, Long> ends =
          consumer.endOffsets(byPartition.keySet(), remaining(deadline));
      Map<TopicPartition, Range> open = new HashMap<>();
      byPartition.forEach(
          (partition, range) -> {
            long last = Math.min(range.to(), ends.getOrDefault(partition, 0L) - 1);
            if (last >= range.from()) {
              open.put(partition, new Range(range.topic(), partition, range.from(), last));
            }
          });
      long read = 0;
      while (!open.isEmpty()) {
        Duration left = remaining(deadline);
        if (left.isZero()) {
          overBound.increment();
          return Optional.empty();
        }
        for (ConsumerRecord<String, String> record : consumer.poll(left)) {
          Range range = open.get(new TopicPartition(record.topic(), record.partition()));
          if (range == null || record.offset() > range.to()) {
            continue;
          }
          read += size(record);
          if (read > maxBytes) {
            bytesRead.increment(read);
            overBound.increment();
            return Optional.empty();
          }
          if (teamId.equals(record.key()) && record.value() != null) {
            found.add(
                new Missed(range.topic(), record.offset(), record.timestamp(), record.value()));
          }
        }
        open.entrySet()
            .removeIf(entry -> consumer.position(entry.getKey()) > entry.getValue().to());
      }
      bytesRead.increment(read);
    }
    replayed.increment();
    events.increment(found.size());
    return Optional.of(found);
  }

  private static long size(ConsumerRecord<String, String> record) {
    return Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
  }

  private static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }
}
