package io.agentteams.scheduler.dispatch.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.notification.NotificationProperties;
import io.agentteams.platform.notification.PostgresNotifications;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.signal.DatabaseSignals;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The pull streams' safety-net poll: one look for every stream a replica holds, and a wake-up only
 * for the streams whose agent has work — so open streams of idle agents cost nothing between the
 * database's signals, however many there are.
 */
class PullStreamsTest {

  private static final AgentKey ADA = new AgentKey("owner-1", "ada");
  private static final AgentKey BEA = new AgentKey("owner-1", "bea");
  private static final AgentKey CY = new AgentKey("owner-2", "cy");

  private final RecordingDispatch dispatch = new RecordingDispatch();
  private final PullStreams streams =
      new PullStreams(dispatch, signalsThatNeverArrive(), defaults(), new SimpleMeterRegistry());
  private final List<Disposable> open = new ArrayList<>();

  @AfterEach
  void closeStreams() {
    open.forEach(Disposable::dispose);
  }

  @Test
  void pollingLooksOnceForEveryOpenStreamAndWakesOnlyThoseWhoseAgentHasWork() {
    openStream(ADA);
    openStream(BEA);
    openStream(CY);
    assertThat(dispatch.claims).as("each stream claims once when it opens").hasSize(3);
    dispatch.claims.clear();
    dispatch.withWork = Set.of(BEA);

    long woken = streams.pollOpenStreams().block(Duration.ofSeconds(5));

    assertThat(dispatch.looks)
        .as("one look, for the three agents")
        .singleElement()
        .satisfies(agents -> assertThat(agents).containsExactlyInAnyOrder(ADA, BEA, CY));
    assertThat(woken).isEqualTo(1);
    assertThat(dispatch.claims).containsExactly(BEA);
  }

  @Test
  void aPollWithNoStreamOpenAsksNothingAndAClosedStreamIsNoLongerLookedFor() {
    streams.pollOpenStreams().block(Duration.ofSeconds(5));
    assertThat(dispatch.looks).isEmpty();

    Disposable ada = openStream(ADA);
    openStream(BEA);
    ada.dispose();
    dispatch.claims.clear();
    dispatch.withWork = Set.of(ADA, BEA);

    streams.pollOpenStreams().block(Duration.ofSeconds(5));

    assertThat(dispatch.looks)
        .singleElement()
        .satisfies(agents -> assertThat(agents).containsExactly(BEA));
    assertThat(dispatch.claims).containsExactly(BEA);
  }

  @Test
  void twoStreamsOfOneAgentAreBothWoken() {
    openStream(ADA);
    openStream(ADA);
    dispatch.claims.clear();
    dispatch.withWork = Set.of(ADA);

    streams.pollOpenStreams().block(Duration.ofSeconds(5));

    assertThat(dispatch.looks)
        .singleElement()
        .satisfies(agents -> assertThat(agents).containsExactly(ADA));
    assertThat(dispatch.claims).containsExactly(ADA, ADA);
  }

  private Disposable openStream(AgentKey agent) {
    Disposable stream =
        streams
            .offers(agent, new PullStreams.Terms(Duration.ofSeconds(30), "worker", null))
            .subscribe();
    open.add(stream);
    return stream;
  }

  private static SchedulerProperties defaults() {
    return new Binder(new MapConfigurationPropertySource(Map.of()))
        .bindOrCreate("agentteams.scheduler", SchedulerProperties.class);
  }

  /** Signals from a listener that is never started: only the poll can wake a stream. */
  private static DatabaseSignals signalsThatNeverArrive() {
    ConnectionFactory unused =
        new ConnectionFactory() {
          @Override
          public Publisher<? extends Connection> create() {
            return Mono.error(new IllegalStateException("no database in this test"));
          }

          @Override
          public ConnectionFactoryMetadata getMetadata() {
            return () -> "none";
          }
        };
    return new DatabaseSignals(
        new PostgresNotifications(
            unused,
            new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("agentteams.notifications", NotificationProperties.class),
            new SimpleMeterRegistry()));
  }

  /** A dispatch with no jobs to offer, recording what the streams ask of it. */
  private static final class RecordingDispatch implements DispatchPort {

    final List<AgentKey> claims = new CopyOnWriteArrayList<>();
    final List<List<AgentKey>> looks = new CopyOnWriteArrayList<>();
    volatile Set<AgentKey> withWork = Set.of();

    @Override
    public Flux<Offer> claim(AgentKey agent, String holder, int max, Duration leaseTtl) {
      claims.add(agent);
      return Flux.empty();
    }

    @Override
    public Mono<Integer> leasesHeldBy(AgentKey agent, String holder) {
      return Mono.just(0);
    }

    @Override
    public Mono<Integer> workerHasRoom(AgentKey agent, int room) {
      return Mono.just(0);
    }

    @Override
    public Flux<AgentKey> withWorkForStreams(Collection<AgentKey> agents) {
      looks.add(List.copyOf(agents));
      return Flux.fromIterable(agents).filter(withWork::contains);
    }

    @Override
    public Mono<Job> report(Caller.Worker worker, UUID jobId, WorkerReport report) {
      return Mono.error(new UnsupportedOperationException());
    }
  }
}
