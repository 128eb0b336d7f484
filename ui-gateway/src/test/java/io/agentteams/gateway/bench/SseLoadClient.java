package io.agentteams.gateway.bench;

import io.agentteams.platform.event.EventCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The subscriber side of {@link SseFanoutBenchmark}, in its own JVM: opens the streams, prints
 * {@code CONNECTED} once every one delivered its first heartbeat, records publish → receive
 * latency, and prints {@code RESULT} once every expected event arrived (or after a minute).
 */
public final class SseLoadClient {

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String token = args[1];
    List<String> teams = Files.readAllLines(Path.of(args[2]));
    int perTeam = Integer.parseInt(args[3]);
    long expected = (long) teams.size() * perTeam * Integer.parseInt(args[4]);
    int connections = teams.size() * perTeam;
    EventCodec codec = new EventCodec("client", Clock.systemUTC());
    Histogram latency = new ConcurrentHistogram(TimeUnit.SECONDS.toMicros(60), 3);
    AtomicLong received = new AtomicLong();
    CountDownLatch open = new CountDownLatch(connections);
    CountDownLatch everything = new CountDownLatch(1);
    WebClient client =
        WebClient.builder()
            .baseUrl(url)
            .clientConnector(
                new org.springframework.http.client.reactive.ReactorClientHttpConnector(
                    HttpClient.create(
                        ConnectionProvider.builder("sse")
                            .maxConnections(connections + 10)
                            .pendingAcquireMaxCount(-1)
                            .build())))
            .build();
    // Open the streams in waves, each once the previous wave is open, as real clients arrive.
    int wave = 250;
    for (int i = 0; i < connections; i++) {
      if (i > 0 && i % wave == 0) {
        long target = connections - i;
        if (!awaitAtMost(open, target, Duration.ofMinutes(1))) {
          System.out.println(
              "wave stalled at " + (connections - open.getCount()) + " open streams");
        }
      }
      {
        String team = teams.get(i % teams.size());
        boolean[] opened = {false};
        client
            .get()
            .uri("/api/v1/teams/{team}/events", team)
            .header("Authorization", "Bearer " + token)
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
            .doOnNext(
                event -> {
                  if (event.comment() != null) {
                    // The first comment proves the stream is open end to end.
                    if (!opened[0]) {
                      opened[0] = true;
                      open.countDown();
                    }
                    return;
                  }
                  SseFanoutBenchmark.Tick tick =
                      codec.data(codec.read(event.data()), SseFanoutBenchmark.Tick.class);
                  // The first round warms the JIT up and is not measured.
                  if (tick.round() > 0) {
                    latency.recordValue(
                        Math.max(0, SseFanoutBenchmark.nowMicros() - tick.sentMicros()));
                  }
                  if (received.incrementAndGet() == expected) {
                    everything.countDown();
                  }
                })
            .doOnError(e -> System.out.println("stream error: " + e))
            .subscribe();
      }
    }
    if (!open.await(5, TimeUnit.MINUTES)) {
      System.out.println("only " + (connections - open.getCount()) + " streams opened");
    }
    System.out.println("CONNECTED " + (connections - open.getCount()));
    // The parent publishes now; wait for every delivery (or give up after a minute).
    everything.await(60, TimeUnit.SECONDS);
    System.out.printf(
        "RESULT p50 %.1f %.1f p99_ms deliveries=%d max=%.1fms%n",
        latency.getValueAtPercentile(50) / 1000.0,
        latency.getValueAtPercentile(99) / 1000.0,
        received.get(),
        latency.getMaxValue() / 1000.0);
    System.exit(0);
  }

  /** Waits until the latch has counted down to at most {@code remaining}. */
  private static boolean awaitAtMost(CountDownLatch latch, long remaining, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (latch.getCount() > remaining) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      // Parks for a millisecond at most; the latch has no "count at most" wait of its own.
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
    return true;
  }
}
