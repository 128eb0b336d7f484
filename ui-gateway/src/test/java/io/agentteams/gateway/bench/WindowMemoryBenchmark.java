package io.agentteams.gateway.bench;

import io.agentteams.contracts.EventPayload;
import io.agentteams.contracts.Topics;
import io.agentteams.gateway.stream.EventReplay;
import io.agentteams.gateway.stream.StreamProperties;
import io.agentteams.gateway.stream.TeamEventFeed;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.tracing.EventTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.management.ObjectName;
import org.apache.kafka.common.TopicPartition;
import org.springframework.util.unit.DataSize;

/**
 * The gateway's team windows under a flood: {@code TEAMS} teams each publish {@code EVENTS} events
 * of {@code EVENT_KB} KiB into one feed with the default bounds (1 MB per team, 128 MB in all). The
 * figure is the heap the windows hold after the flood (heap after GC, less the heap before), beside
 * the windows' own accounting and the bound; the floor, measured in the same run, is the heap taken
 * by the same number of bytes of the same JSON held as plain strings. A class histogram of the heap
 * shows what is kept.
 *
 * <p>Run: {@code ./mvnw -Dbench=windows -pl ui-gateway -am verify}
 */
public final class WindowMemoryBenchmark {

  static final int TEAMS = Integer.getInteger("bench.teams", 10_000);
  static final int EVENTS = Integer.getInteger("bench.events", 2);
  static final int EVENT_KB = Integer.getInteger("bench.event-kb", 16);

  /** A large event. */
  public record Large(String text) implements EventPayload {
    @Override
    public String eventType() {
      return "Large";
    }
  }

  public static void main(String[] args) throws Exception {
    EventCodec codec = new EventCodec("bench", Clock.systemUTC());
    StreamProperties defaults =
        new StreamProperties(
            1000,
            10_000,
            1024,
            Duration.ofSeconds(15),
            DataSize.ofMegabytes(1),
            DataSize.ofMegabytes(128),
            DataSize.ofMegabytes(16),
            Duration.ofSeconds(10),
            4);
    String filler = "z".repeat(EVENT_KB * 1024);

    // The floor: the bound's worth of the same JSON, as plain strings.
    long before = heapAfterGc();
    List<String> plain = new ArrayList<>();
    long plainBytes = 0;
    for (int i = 0; plainBytes < defaults.windowBytesTotal().toBytes(); i++) {
      String json =
          codec.write(
              codec.envelope(new Large(i + filler), UUID.randomUUID().toString(), "o", 1, null));
      plain.add(json);
      plainBytes += json.getBytes(StandardCharsets.UTF_8).length;
    }
    long floor = heapAfterGc() - before;
    System.out.printf("kept %d strings (%d bytes)%n", plain.size(), plainBytes);
    plain.clear();

    before = heapAfterGc();
    TeamEventFeed feed =
        new TeamEventFeed(
            codec, defaults, EventTracing.NONE, EventReplay.NONE, new SimpleMeterRegistry());
    for (String topic : Topics.EVENT_TOPICS) {
      for (int p = 0; p < 12; p++) {
        feed.assigned(new TopicPartition(topic, p), 0, 12);
      }
    }
    long offered = 0;
    long offset = 0;
    long most = 0;
    for (int event = 0; event < EVENTS; event++) {
      for (int team = 0; team < TEAMS; team++) {
        String json =
            codec.write(
                codec.envelope(
                    new Large(event + "/" + team + filler),
                    new UUID(team, 42).toString(),
                    "owner",
                    event + 1,
                    null));
        offered += json.length();
        feed.accept(Topics.TEAM_EVENTS, offset++, json);
        most = Math.max(most, feed.retainedBytes());
      }
    }
    long held = heapAfterGc() - before;
    System.out.println(histogram(12));
    System.out.printf(
        "windows: %,d teams x %d events of %d KiB = %,d MB offered%n",
        TEAMS, EVENTS, EVENT_KB, offered >> 20);
    System.out.printf(
        "retained by the windows' accounting: %,d MB now, %,d MB at most (bound %,d MB)%n",
        feed.retainedBytes() >> 20, most >> 20, defaults.windowBytesTotal().toMegabytes());
    System.out.printf(
        "heap held by the windows: %,d MB; floor (the bound's bytes as plain strings): %,d MB%n",
        held >> 20, floor >> 20);
    if (most > defaults.windowBytesTotal().toBytes()) {
      throw new IllegalStateException("the windows kept more than their bound");
    }
    // Keep the feed reachable until after the measurement.
    System.out.println(feed.retainedBytes() > 0 ? "" : "empty");
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static String histogram(int lines) throws Exception {
    String text =
        (String)
            ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {null},
                    new String[] {String[].class.getName()});
    return String.join("\n", text.lines().limit(lines + 3).toList());
  }
}
