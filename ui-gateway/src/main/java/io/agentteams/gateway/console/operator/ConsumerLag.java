package io.agentteams.gateway.console.operator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * How far each consumer group of the services is behind its topics: for every partition it has
 * committed, the log's end offset minus the committed offset. The gateway's own stream consumers
 * commit nothing and are left out.
 */
@Component
public class ConsumerLag implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final Map<String, Object> config;
  private volatile Admin admin;

  public ConsumerLag(KafkaProperties kafka) {
    this.config = new HashMap<>(kafka.buildAdminProperties());
  }

  /** One consumer group and how many records it has yet to process. */
  public record GroupLag(String group, long lag, int partitions) {}

  /** The lag of every consumer group, by name. */
  public Mono<List<GroupLag>> groups() {
    return Mono.fromCallable(this::measure).subscribeOn(Schedulers.boundedElastic());
  }

  private List<GroupLag> measure() throws Exception {
    Admin kafka = admin();
    List<GroupLag> result = new ArrayList<>();
    for (ConsumerGroupListing listing :
        kafka.listConsumerGroups().all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      String group = listing.groupId();
      if (group.startsWith("ui-gateway.feed.")) {
        continue;
      }
      Map<TopicPartition, OffsetAndMetadata> committed =
          kafka
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
          latest.isEmpty()
              ? Map.of()
              : kafka.listOffsets(latest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      long lag = 0;
      for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : committed.entrySet()) {
        ListOffsetsResult.ListOffsetsResultInfo end = ends.get(entry.getKey());
        if (end != null && entry.getValue() != null) {
          lag += Math.max(0, end.offset() - entry.getValue().offset());
        }
      }
      result.add(new GroupLag(group, lag, committed.size()));
    }
    result.sort((a, b) -> a.group().compareTo(b.group()));
    return result;
  }

  private Admin admin() {
    Admin current = admin;
    if (current == null) {
      synchronized (this) {
        if (admin == null) {
          admin = Admin.create(config);
        }
        current = admin;
      }
    }
    return current;
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(2));
    }
  }
}
