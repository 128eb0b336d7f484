package io.agentteams.platform.autoconfigure;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.health.KafkaHealthIndicator;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.IdentityProperties;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.loop.LoopProperties;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.platform.outbound.HostLookup;
import io.agentteams.platform.outbound.OutboundHttp;
import io.agentteams.platform.outbound.OutboundPolicy;
import io.agentteams.platform.outbound.OutboundProperties;
import io.agentteams.platform.tracing.EventTracing;
import io.agentteams.platform.web.CallerArgumentResolver;
import io.agentteams.platform.web.CallerWebFilter;
import io.agentteams.platform.web.ProblemDetailsAdvice;
import io.agentteams.platform.web.ProblemExceptionHandler;
import io.agentteams.platform.web.StreamDrain;
import io.agentteams.platform.web.StrictJsonNumbers;
import io.agentteams.platform.web.UndecodableRequests;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import reactor.core.scheduler.Schedulers;

/**
 * What every service and the gateway share: the event codec, the event topics, Kafka health, caller
 * identity, team access, Problem Details, tracing across Kafka and the builder of periodic loops.
 */
@AutoConfiguration(after = KafkaAutoConfiguration.class)
@EnableConfigurationProperties({
  IdentityProperties.class,
  PlatformKafkaProperties.class,
  LoopProperties.class,
  OutboundProperties.class
})
public class PlatformAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  @ConditionalOnMissingBean
  EventCodec eventCodec(@Value("${spring.application.name}") String application, Clock clock) {
    return new EventCodec(application, clock);
  }

  /** Builds the services' periodic loops (sweepers, reconcilers, housekeeping). */
  @Bean
  @ConditionalOnMissingBean
  PeriodicLoops periodicLoops(LoopProperties loops, MeterRegistry meters) {
    return new PeriodicLoops(loops, meters);
  }

  @Bean(name = "kafkaHealthIndicator")
  KafkaHealthIndicator kafkaHealthIndicator(KafkaProperties kafka) {
    return new KafkaHealthIndicator(kafka.buildAdminProperties(), Duration.ofSeconds(3));
  }

  @Bean
  KafkaAdmin.NewTopics eventTopics(PlatformKafkaProperties kafka) {
    List<NewTopic> topics = new ArrayList<>();
    for (String topic : Topics.EVENT_TOPICS) {
      topics.add(new NewTopic(topic, kafka.partitions(), kafka.replicationFactor()));
      topics.add(
          new NewTopic(Topics.deadLetter(topic), kafka.partitions(), kafka.replicationFactor()));
    }
    topics.add(
        new NewTopic(Topics.AGENT_RUNTIMES, kafka.partitions(), kafka.replicationFactor())
            .configs(Map.of("cleanup.policy", "compact")));
    topics.add(
        new NewTopic(
            Topics.deadLetter(Topics.AGENT_RUNTIMES),
            kafka.partitions(),
            kafka.replicationFactor()));
    // Kept for seven days, far beyond the longest token a gateway accepts (member tokens: hours),
    // so a gateway replica that starts reads every revocation still in force.
    topics.add(
        new NewTopic(Topics.TOKEN_REVOCATIONS, kafka.partitions(), kafka.replicationFactor())
            .configs(Map.of("retention.ms", String.valueOf(Duration.ofDays(7).toMillis()))));
    return new KafkaAdmin.NewTopics(topics.toArray(NewTopic[]::new));
  }

  /**
   * Services verify the internal caller token with the gateway's public keys, and hold nothing that
   * could sign one; the gateway, which signs them, turns this off and has its own keys.
   */
  @Bean
  @ConditionalOnProperty(
      name = "agentteams.identity.verify-internal-callers",
      havingValue = "true",
      matchIfMissing = true)
  CallerWebFilter callerWebFilter(
      IdentityProperties identity,
      @Value("${spring.application.name}") String application,
      Clock clock) {
    // Each service accepts tokens for itself only (InternalAudiences).
    return new CallerWebFilter(
        CallerTokens.verifying(
            TokenKeys.internalVerification(
                identity.internalVerificationKeys(), IdentityProperties.VERIFICATION_KEYS),
            identity.issuer(),
            identity.audience() != null ? identity.audience() : application,
            clock));
  }

  /** The one decision of who may act on a team, and as whom. */
  @Bean
  @ConditionalOnMissingBean
  TeamAccess teamAccess() {
    return new TeamAccess();
  }

  /**
   * Traces across the outbox and Kafka with the application's tracer (Micrometer Tracing over
   * OpenTelemetry); traces nothing where no tracer is configured.
   */
  @Bean
  @ConditionalOnMissingBean
  EventTracing eventTracing(
      ObjectProvider<Tracer> tracer,
      ObjectProvider<Propagator> propagator,
      ObjectProvider<ObservationRegistry> observations) {
    return new EventTracing(
        tracer.getIfAvailable(() -> Tracer.NOOP),
        propagator.getIfAvailable(() -> Propagator.NOOP),
        observations.getIfAvailable(() -> ObservationRegistry.NOOP));
  }

  /** Ends SSE streams when shutdown begins, so clients reconnect elsewhere. */
  @Bean
  StreamDrain streamDrain() {
    return new StreamDrain();
  }

  /** The SSRF guard's decision: what user-supplied URLs may reach. */
  @Bean
  @ConditionalOnMissingBean
  OutboundPolicy outboundPolicy(OutboundProperties outbound) {
    return outbound.policy();
  }

  /** HTTP clients for calls to user-supplied URLs, all through the guard. */
  @Bean
  @ConditionalOnMissingBean
  OutboundHttp outboundHttp(OutboundPolicy policy, ObjectProvider<HostLookup> lookup) {
    return new OutboundHttp(
        policy,
        lookup.getIfAvailable(HostLookup::system),
        task -> Schedulers.boundedElastic().schedule(task));
  }

  @Bean
  ProblemDetailsAdvice problemDetailsAdvice() {
    return new ProblemDetailsAdvice();
  }

  @Bean
  ProblemExceptionHandler problemExceptionHandler() {
    return new ProblemExceptionHandler();
  }

  /** Requests the HTTP decoder cannot read are answered with Problem Details too. */
  @Bean
  NettyServerCustomizer undecodableRequestsAnswerProblemDetails() {
    return UndecodableRequests.customizer();
  }

  /** Request bodies carry numbers as numbers of the field's kind. */
  @Bean
  JsonMapperBuilderCustomizer strictJsonNumbers() {
    return StrictJsonNumbers.customizer();
  }

  @Bean
  WebFluxConfigurer callerArgumentConfigurer() {
    return new WebFluxConfigurer() {
      @Override
      public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
        configurer.addCustomResolver(new CallerArgumentResolver());
      }
    };
  }
}
