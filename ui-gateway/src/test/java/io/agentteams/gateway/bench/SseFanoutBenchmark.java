package io.agentteams.gateway.bench;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.gateway.GatewayApplication;
import io.agentteams.gateway.support.StubServices;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.test.TestInfrastructure;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Fan-out of team event streams: {@code SUBSCRIBERS} concurrent SSE subscribers on one gateway over
 * loopback (a separate client JVM holds the connections), spread over {@code TEAMS} teams. Events
 * published to Kafka carry their send time; the client records publish → receive latency of every
 * delivery. The raw floor is the same events' Kafka produce → plain consumer receive latency in the
 * same run. Memory per connection is the gateway JVM's growth (heap after GC, and resident set)
 * divided by the connections.
 *
 * <p>Run: {@code ./mvnw -Dbench=sse -pl ui-gateway -am verify}
 */
public final class SseFanoutBenchmark {

  static final int SUBSCRIBERS = Integer.getInteger("bench.subscribers", 10_000);
  static final int TEAMS = Integer.getInteger("bench.teams", 1_000);
  static final int ROUNDS = Integer.getInteger("bench.rounds", 20);
  static final long ROUND_MILLIS = Long.getLong("bench.round-millis", 1_000);

  /** A benchmark event: when it was sent, in microseconds since the epoch. */
  public record Tick(long sentMicros, int round) implements EventPayload {
    @Override
    public String eventType() {
      return "Tick";
    }
  }

  public static void main(String[] args) throws Exception {
    TestInfrastructure infrastructure = TestInfrastructure.shared();
    infrastructure.createTopics(4, Topics.EVENT_TOPICS);
    StubServices services = new StubServices(true);
    ConfigurableApplicationContext gateway =
        GatewayApplication.application()
            .run(
                io.agentteams.platform.testidentity.TestIdentity.withKeys(
                    "--server.port=0",
                    "--management.server.port=0",
                    "--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
                    "--agentteams.gateway.services.team=" + services.url("team"),
                    "--agentteams.gateway.identity.dev-identity-enabled=true",
                    "--agentteams.gateway.limits.burst=1000000",
                    "--agentteams.gateway.limits.requests-per-second=1000000",
                    "--agentteams.gateway.limits.anonymous-burst=1000000",
                    "--agentteams.kafka.partitions=4",
                    "--logging.level.root=WARN"));
    int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
    String url = "http://127.0.0.1:" + port;
    String token =
        (String)
            WebClient.create(url)
                .post()
                .uri("/dev/tokens")
                .bodyValue(Map.of("owner_id", StubServices.OWNER))
                .retrieve()
                .bodyToMono(Map.class)
                .block()
                .get("access_token");
    List<String> teams = new ArrayList<>();
    for (int t = 0; t < TEAMS; t++) {
      teams.add(UUID.randomUUID().toString());
    }
    Path teamFile = Files.createTempFile("sse-teams", ".txt");
    Files.write(teamFile, teams);

    long heapBefore = heapAfterGc();
    long rssBefore = residentKb();
    Process client =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx2g",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                SseLoadClient.class.getName(),
                url,
                token,
                teamFile.toString(),
                Integer.toString(SUBSCRIBERS / TEAMS),
                Integer.toString(ROUNDS))
            .redirectErrorStream(true)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null && !line.startsWith("CONNECTED")) {
      System.out.println("client: " + line);
    }
    System.out.println("client: " + line);
    long heapAfter = heapAfterGc();
    long rssAfter = residentKb();

    // Raw floor: the same kind of events, produce -> plain consumer, in this run.
    Histogram raw = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    String rawTopic = "bench-raw-" + UUID.randomUUID();
    infrastructure.createTopics(4, List.of(rawTopic));
    EventCodec codec = new EventCodec("bench", Clock.systemUTC());
    CountDownLatch rawDone = new CountDownLatch(TEAMS * ROUNDS);
    Thread rawReader =
        new Thread(
            () -> {
              try (KafkaConsumer<String, String> consumer =
                  new KafkaConsumer<>(
                      Map.of(
                          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                          infrastructure.kafkaBootstrapServers(),
                          ConsumerConfig.GROUP_ID_CONFIG,
                          "raw-" + UUID.randomUUID(),
                          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                          "earliest"),
                      new StringDeserializer(),
                      new StringDeserializer())) {
                consumer.subscribe(List.of(rawTopic));
                while (rawDone.getCount() > 0) {
                  for (var record : consumer.poll(Duration.ofMillis(50))) {
                    Tick tick = codec.data(codec.read(record.value()), Tick.class);
                    if (tick.round() > 0) {
                      raw.recordValue(Math.max(0, nowMicros() - tick.sentMicros()));
                    }
                    rawDone.countDown();
                  }
                }
              }
            });
    rawReader.start();

    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                infrastructure.kafkaBootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG,
                0,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class))) {
      // A steady offered load: each round spreads its one event a team evenly over the round, so
      // the gateway sees a constant rate, not a burst a second. Pacing parks the thread; it never
      // spins (on two cores a spinning publisher would take the CPU the gateway needs).
      long interval = TimeUnit.MILLISECONDS.toNanos(ROUND_MILLIS) / teams.size();
      long next = System.nanoTime();
      for (int round = 0; round < ROUNDS; round++) {
        for (String team : teams) {
          long wait = next - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
          next += interval;
          String json =
              codec.write(
                  codec.envelope(
                      new Tick(nowMicros(), round), team, StubServices.OWNER, round, null));
          producer.send(new ProducerRecord<>(Topics.TEAM_EVENTS, team, json));
          producer.send(new ProducerRecord<>(rawTopic, team, json));
        }
      }
      producer.flush();
    }
    rawDone.await(60, TimeUnit.SECONDS);
    while ((line = out.readLine()) != null) {
      System.out.println("client: " + line);
      if (line.startsWith("RESULT")) {
        String[] parts = line.split(" ");
        double p99 = Double.parseDouble(parts[3]);
        System.out.printf(
            "%nSSE fan-out: %d subscribers over %d teams, %d events each team (one a team every %d ms;"
                + " the first round warms up and is not measured)%n"
                + "  raw Kafka produce -> consume: p50 %.1f ms  p99 %.1f ms%n"
                + "  gateway publish -> SSE receive: p50 %s ms  p99 %s ms  (%s)%n"
                + "  ratio p99 SSE / raw = %.2f (target: SSE p99 <= 100 ms)%n"
                + "  gateway memory per connection: heap %.1f KB, resident %.1f KB%n",
            SUBSCRIBERS,
            TEAMS,
            ROUNDS,
            ROUND_MILLIS,
            raw.getValueAtPercentile(50) / 1000.0,
            raw.getValueAtPercentile(99) / 1000.0,
            parts[2],
            parts[3],
            parts[5] + ", " + parts[6],
            p99 / (raw.getValueAtPercentile(99) / 1000.0),
            (heapAfter - heapBefore) / 1024.0 / SUBSCRIBERS,
            (rssAfter - rssBefore) / (double) SUBSCRIBERS);
        break;
      }
    }
    client.waitFor(30, TimeUnit.SECONDS);
    client.destroy();
    gateway.close();
    services.close();
    System.exit(0);
  }

  static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long residentKb() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return 0;
  }
}
