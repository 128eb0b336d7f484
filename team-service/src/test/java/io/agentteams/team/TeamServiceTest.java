package io.agentteams.team;

import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.team.support.TestRuntimeConfiguration;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;

/**
 * team-service running on a random port against the shared Kafka and its own database, with a
 * scripted agent runtime and a crash-injecting provisioning checkpoint, and short provisioning
 * leases so that recovery after an injected crash is quick. Every integration test shares this one
 * application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@RealInfrastructure(database = "team")
@SpringBootTest(
    classes = TeamApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + TeamApplication.CONFIG_NAME,
      "agentteams.kafka.partitions=4",
      "agentteams.outbox.poll-interval=200ms",
      "agentteams.consumer.initial-backoff=50ms",
      "agentteams.team.provisioning.lease=2s",
      "agentteams.team.provisioning.step-timeout=1s",
      "agentteams.team.provisioning.reconcile-interval=200ms",
      "agentteams.team.provisioning.retry-backoff=100ms",
      "agentteams.team.provisioning.max-retry-backoff=300ms",
      "agentteams.team.provisioning.max-attempts=3"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
@Import(TestRuntimeConfiguration.class)
public @interface TeamServiceTest {}
