package io.agentteams.platform.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventLoopWatchTest {

  private static final long STUCK = EventLoopWatch.STUCK.toNanos();

  private final List<String> reports = new ArrayList<>();
  private final EventLoopWatch watch = new EventLoopWatch(reports::add);

  private static final StackTraceElement[] BLOCKED = {
    frame("java.util.concurrent.locks.LockSupport", "park"),
    frame("org.apache.kafka.clients.producer.KafkaProducer", "waitOnMetadata"),
    frame("io.netty.channel.nio.NioEventLoop", "run")
  };

  private static final StackTraceElement[] POLLING = {
    frame("io.netty.channel.epoll.Native", "epollWait"),
    frame("io.netty.channel.epoll.EpollEventLoop", "epollWait"),
    frame("io.netty.channel.epoll.EpollEventLoop", "run")
  };

  /** A scheduler's worker waiting for its next task, eight frames below the park. */
  private static final StackTraceElement[] QUEUED = {
    frame("jdk.internal.misc.Unsafe", "park"),
    frame("java.util.concurrent.locks.LockSupport", "park"),
    frame("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionNode", "block"),
    frame("java.util.concurrent.ForkJoinPool", "unmanagedBlock"),
    frame("java.util.concurrent.ForkJoinPool", "managedBlock"),
    frame("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", "await"),
    frame("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "take"),
    frame("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "take"),
    frame("java.util.concurrent.ThreadPoolExecutor", "getTask"),
    frame("java.util.concurrent.ThreadPoolExecutor", "runWorker")
  };

  @Test
  void anEventLoopInOnePlaceLongerThanItMayIsReportedOnceWithItsStack() {
    Thread loop = new Thread(() -> {}, "webflux-http-epoll-3");

    watch.sample(Map.of(loop, BLOCKED), 0);
    watch.sample(Map.of(loop, BLOCKED), STUCK - 1);
    assertThat(reports).isEmpty();

    watch.sample(Map.of(loop, BLOCKED), STUCK);
    watch.sample(Map.of(loop, BLOCKED), 2 * STUCK);

    assertThat(reports).hasSize(1);
    assertThat(reports.get(0))
        .startsWith("EVENT LOOP STALLED: webflux-http-epoll-3")
        .contains("KafkaProducer.waitOnMetadata");
  }

  @Test
  void aLoopThatMovesOrWaitsForWorkIsNotReportedNorIsAThreadThatMayBlock() {
    Thread loop = new Thread(() -> {}, "reactor-http-epoll-1");
    Thread elastic = new Thread(() -> {}, "boundedElastic-4");
    Thread parallel = new Thread(() -> {}, "parallel-2");

    for (long now = 0; now <= 3 * STUCK; now += STUCK / 2) {
      StackTraceElement[] loopStack = (now / (STUCK / 2)) % 2 == 0 ? BLOCKED : POLLING;
      watch.sample(Map.of(loop, loopStack, elastic, BLOCKED, parallel, QUEUED), now);
    }

    assertThat(reports).isEmpty();
  }

  private static StackTraceElement frame(String type, String method) {
    return new StackTraceElement(type, method, type + ".java", 1);
  }
}
