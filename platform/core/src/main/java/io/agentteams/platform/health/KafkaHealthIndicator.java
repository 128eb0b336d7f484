package io.agentteams.platform.health;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** UP when the Kafka cluster answers a describe-cluster request in time. */
public final class KafkaHealthIndicator extends AbstractReactiveHealthIndicator
    implements DisposableBean {

  private final Admin admin;
  private final Duration timeout;

  public KafkaHealthIndicator(Map<String, Object> adminProperties, Duration timeout) {
    super("Kafka health check failed");
    this.admin = Admin.create(adminProperties);
    this.timeout = timeout;
  }

  @Override
  protected Mono<Health> doHealthCheck(Health.Builder builder) {
    return Mono.fromCallable(
            () -> {
              var cluster =
                  admin.describeCluster(
                      new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()));
              String clusterId = cluster.clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
              int nodes = cluster.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
              return builder
                  .up()
                  .withDetail("clusterId", clusterId)
                  .withDetail("nodes", nodes)
                  .build();
            })
        .subscribeOn(Schedulers.boundedElastic());
  }

  @Override
  public void destroy() {
    admin.close(Duration.ofSeconds(2));
  }
}
