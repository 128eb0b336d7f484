package io.agentteams.platform.consumer;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

/**
 * A consumer factory whose consumers leave their group when closed, static members included.
 *
 * <p>A static member ({@code group.instance.id}) that closes stays in its group, keeping its
 * partitions until its session times out, so that a replica coming back under the same name takes
 * them back without a rebalance. That suits a crash, but a clean stop usually means the replica is
 * not coming back under that name (a Deployment's pods are replaced under new names, a scale-down
 * removes one): its partitions would go unread for the whole session time-out. spring-kafka's
 * listener container has no setting for how it closes its consumer, so the consumer decides: every
 * close leaves. A process that dies without closing (a {@code kill -9}) sends nothing and keeps its
 * static membership: restarted under its name, it takes its partitions back without a rebalance. A
 * close that is given no time-out (the container's) takes at most the factory's.
 */
final class GroupLeavingConsumerFactory<K, V> extends DefaultKafkaConsumerFactory<K, V> {

  private final Duration closeTimeout;

  GroupLeavingConsumerFactory(Map<String, Object> config, Duration closeTimeout) {
    super(config);
    this.closeTimeout = closeTimeout;
  }

  @Override
  protected Consumer<K, V> createRawConsumer(Map<String, Object> config) {
    // A subclass of the factory's own consumer, so its listeners (client metrics) still see it.
    return new GroupLeavingConsumer(config);
  }

  /**
   * Closes by leaving the group. The container unsubscribes right before it closes, and an
   * unsubscribe makes a static member forget its member id without leaving, after which a close has
   * no membership left to end. So an unsubscribe waits for what comes next: a close does both (it
   * revokes the partitions, through the same callbacks, and leaves); anything that would consume
   * again (poll, subscribe, assign) unsubscribes for real first. Used by one thread, as every
   * consumer is.
   */
  private final class GroupLeavingConsumer extends ExtendedKafkaConsumer {

    private boolean unsubscribePending;

    GroupLeavingConsumer(Map<String, Object> config) {
      super(config);
    }

    @Override
    public void unsubscribe() {
      unsubscribePending = true;
    }

    private void unsubscribeIfPending() {
      if (unsubscribePending) {
        unsubscribePending = false;
        super.unsubscribe();
      }
    }

    @Override
    public void close() {
      close(leave().withTimeout(closeTimeout));
    }

    @Override
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
      close(leave().withTimeout(timeout));
    }

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
      unsubscribeIfPending();
      return super.poll(timeout);
    }

    @Override
    public void subscribe(Collection<String> topics) {
      unsubscribeIfPending();
      super.subscribe(topics);
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener callback) {
      unsubscribeIfPending();
      super.subscribe(topics, callback);
    }

    @Override
    public void subscribe(Pattern pattern) {
      unsubscribeIfPending();
      super.subscribe(pattern);
    }

    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener callback) {
      unsubscribeIfPending();
      super.subscribe(pattern, callback);
    }

    @Override
    public void subscribe(SubscriptionPattern pattern) {
      unsubscribeIfPending();
      super.subscribe(pattern);
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
      unsubscribeIfPending();
      super.subscribe(pattern, callback);
    }

    @Override
    public void assign(Collection<TopicPartition> partitions) {
      unsubscribeIfPending();
      super.assign(partitions);
    }
  }

  /** Fresh options per close: {@link CloseOptions} is a mutable builder. */
  private static CloseOptions leave() {
    return CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP);
  }
}
