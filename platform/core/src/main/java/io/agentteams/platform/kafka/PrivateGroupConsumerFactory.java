package io.agentteams.platform.kafka;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

/**
 * Consumers alone in a group of their own that commit nothing (a replica reading a whole topic for
 * itself), whose close takes at most a second. Such a close has nothing to commit and no partner to
 * hand partitions to: all it would wait for is the broker's answer to the fetch still in flight (up
 * to {@code fetch.max.wait.ms}), while the stop of the service waits for it.
 */
public final class PrivateGroupConsumerFactory<K, V> extends DefaultKafkaConsumerFactory<K, V> {

  /** The longest a close of one of these consumers takes. */
  public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

  public PrivateGroupConsumerFactory(Map<String, Object> config) {
    super(config);
  }

  @Override
  protected Consumer<K, V> createRawConsumer(Map<String, Object> config) {
    // A subclass of the factory's own consumer, so its listeners (client metrics) still see it.
    return new ExtendedKafkaConsumer(config) {
      @Override
      public void close() {
        close(CloseOptions.timeout(CLOSE_TIMEOUT));
      }
    };
  }
}
