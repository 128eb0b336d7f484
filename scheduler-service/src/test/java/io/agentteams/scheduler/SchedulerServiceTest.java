package io.agentteams.scheduler;

import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestClock;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;

/**
 * scheduler-service running on a random port against the shared Kafka and its own database, with a
 * clock tests can move forward. Every test class with this annotation shares one context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@RealInfrastructure(database = "scheduler")
@SpringBootTest(
    classes = SchedulerApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=" + SchedulerApplication.CONFIG_NAME,
      "agentteams.scheduler.replica-id=replica-main",
      "agentteams.scheduler.dispatch.sweep-interval=200ms",
      "agentteams.scheduler.dispatch.poll-interval=500ms",
      "agentteams.scheduler.admission.poll-interval=500ms",
      "agentteams.scheduler.admission.metrics-interval=500ms",
      "agentteams.outbox.poll-interval=200ms",
      // The runtime contract's test agents listen on loopback, which the outbound guard refuses
      // unless allowed; their lost answers become unknown after a short response time-out.
      "agentteams.outbound.allow-cidrs=127.0.0.1/32",
      "agentteams.scheduler.webhook.connect-timeout=1s",
      "agentteams.scheduler.webhook.response-timeout=2s",
      "agentteams.scheduler.webhook.lease-ttl=10s",
      "agentteams.scheduler.webhook.reconcile-delay=200ms",
      "agentteams.scheduler.webhook.backoff-base=50ms",
      "agentteams.scheduler.webhook.backoff-max=500ms",
      "agentteams.scheduler.a2a.connect-timeout=1s",
      "agentteams.scheduler.a2a.response-timeout=2s",
      "agentteams.scheduler.a2a.lease-ttl=10s",
      "agentteams.scheduler.a2a.reconcile-delay=200ms",
      "agentteams.scheduler.a2a.task-poll-interval=200ms",
      "agentteams.scheduler.a2a.backoff-base=50ms",
      "agentteams.scheduler.a2a.backoff-max=500ms"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
@Import(TestClock.Config.class)
public @interface SchedulerServiceTest {}
