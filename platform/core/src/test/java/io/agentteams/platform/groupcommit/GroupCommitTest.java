package io.agentteams.platform.groupcommit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

class GroupCommitTest {

  private static final String CALLER = "caller";

  private final MeterRegistry meters = new SimpleMeterRegistry();
  private final ExecutorService callers = Executors.newFixedThreadPool(8);

  @AfterEach
  void stopCallers() {
    callers.shutdownNow();
  }

  /** A writer that records its batches and answers each request with twice its number. */
  private static final class Doubler implements GroupCommit.Writer<String, Integer, Integer> {
    final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
    final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    final AtomicInteger mostInFlightPerLane = new AtomicInteger();
    final AtomicInteger mostInFlight = new AtomicInteger();
    final AtomicInteger allInFlight = new AtomicInteger();
    volatile Mono<Void> hold = Mono.empty();

    @Override
    public Mono<?> write(String lane, GroupCommit.Batch<Integer, Integer> batch) {
      batches.add(List.copyOf(batch.requests()));
      AtomicInteger ofLane = inFlight.computeIfAbsent(lane, k -> new AtomicInteger());
      mostInFlightPerLane.accumulateAndGet(ofLane.incrementAndGet(), Math::max);
      mostInFlight.accumulateAndGet(allInFlight.incrementAndGet(), Math::max);
      Mono<Void> release = hold;
      // Answers from another thread, as a database driver does.
      return release
          .then(Mono.delay(Duration.ofMillis(1), Schedulers.parallel()))
          .doOnNext(
              tick -> {
                for (int i = 0; i < batch.size(); i++) {
                  batch.succeed(i, batch.request(i) * 2);
                }
              })
          .doOnTerminate(
              () -> {
                ofLane.decrementAndGet();
                allInFlight.decrementAndGet();
              });
    }
  }

  private GroupCommit<String, Integer, Integer> doubling(Doubler writer, int maxBatch) {
    return GroupCommit.writingWith(writer)
        .maxBatch(maxBatch)
        .meters(meters, "test.commit", "Numbers")
        .timeQueueWait()
        .build();
  }

  @Test
  void requestsThatArriveWhileABatchIsWrittenGoTogetherInTheNextOne() {
    Doubler writer = new Doubler();
    GroupCommit<String, Integer, Integer> commit = doubling(writer, 100);
    Sinks.Empty<Void> release = Sinks.empty();
    writer.hold = release.asMono();
    CompletableFuture<Integer> first = commit.submit("lane", 0).toFuture();
    await().until(() -> writer.batches.size() == 1);

    List<CompletableFuture<Integer>> queued = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      queued.add(commit.submit("lane", i).toFuture());
    }
    assertThat(queued("test.commit")).isEqualTo(20);
    writer.hold = Mono.empty();
    release.tryEmitEmpty();

    assertThat(first.join()).isZero();
    for (int i = 1; i <= 20; i++) {
      assertThat(queued.get(i - 1).join()).isEqualTo(2 * i);
    }
    assertThat(writer.batches).hasSize(2);
    assertThat(writer.batches.get(1)).containsExactlyElementsOf(range(1, 20));
    assertThat(meters.get("test.commit.batch.size").summary().count()).isEqualTo(2);
    assertThat(meters.get("test.commit.batch.size").summary().totalAmount()).isEqualTo(21);
    assertThat(meters.get("test.commit.queue.wait").timer().count()).isEqualTo(21);
    assertThat(meters.get("test.commit.batch.time").timer().count()).isEqualTo(2);
    assertThat(queued("test.commit")).isZero();
  }

  @Test
  void concurrentCallersOnManyThreadsEachGetTheirOwnResultWithOneBatchAtATimePerLane()
      throws Exception {
    Doubler writer = new Doubler();
    GroupCommit<String, Integer, Integer> commit = doubling(writer, 16);
    int perCaller = 400;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<Integer>>> results = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      int caller = c;
      results.add(
          callers.submit(
              () -> {
                start.await();
                List<CompletableFuture<Integer>> mine = new ArrayList<>();
                for (int i = 0; i < perCaller; i++) {
                  int request = caller * perCaller + i;
                  mine.add(commit.submit("lane-" + (request % 3), request).toFuture());
                }
                return mine.stream().map(CompletableFuture::join).toList();
              }));
    }
    start.countDown();

    for (int c = 0; c < 8; c++) {
      List<Integer> answers = results.get(c).get(60, TimeUnit.SECONDS);
      for (int i = 0; i < perCaller; i++) {
        assertThat(answers.get(i)).isEqualTo(2 * (c * perCaller + i));
      }
    }
    List<Integer> written = writer.batches.stream().flatMap(List::stream).toList();
    assertThat(written).hasSize(8 * perCaller).doesNotHaveDuplicates();
    assertThat(writer.batches).allSatisfy(batch -> assertThat(batch).hasSizeBetween(1, 16));
    assertThat(writer.batches.size()).as("batches").isLessThan(8 * perCaller);
    assertThat(writer.mostInFlightPerLane.get()).as("batches of one lane at once").isEqualTo(1);
    assertThat(writer.mostInFlight.get()).as("batches of all lanes at once").isGreaterThan(1);
    assertThat(queued("test.commit")).isZero();
  }

  @Test
  void callersThatGoOnAsSoonAsTheyAreAnsweredKeepTheirBatchesFull() {
    Doubler writer = new Doubler();
    GroupCommit<String, Integer, Integer> commit = doubling(writer, 100);
    int callers = 8;
    int each = 10;

    // The first write waits until every caller has sent its first request, however slowly the
    // machine lets the callers start.
    Sinks.Empty<Void> everyCallerStarted = Sinks.empty();
    writer.hold = everyCallerStarted.asMono();
    // Each caller sends its next request the moment its previous one is answered. Subscribing
    // sends each caller's first request on this thread, so all are sent when toFuture returns.
    var answered =
        Flux.range(0, callers)
            .flatMap(
                caller ->
                    Flux.range(0, each).concatMap(k -> commit.submit("lane", caller * each + k)),
                callers)
            .collectList()
            .toFuture();
    everyCallerStarted.tryEmitEmpty();
    List<Integer> answers = answered.orTimeout(30, TimeUnit.SECONDS).join();

    assertThat(answers).hasSize(callers * each);
    // The first caller's first request goes alone; from then on, the callers answered by a batch
    // queue their next requests before the lane takes its next batch, so all go together.
    List<List<Integer>> batches = writer.batches;
    assertThat(batches.get(0)).hasSize(1);
    assertThat(batches.subList(1, batches.size() - 1)).allSatisfy(b -> assertThat(b).hasSize(8));
    assertThat(batches).hasSizeLessThanOrEqualTo(each + 2);
  }

  @Test
  void eachRequestGetsItsOwnResultOrFailureOrNothing() {
    Sinks.Empty<Void> release = Sinks.empty();
    AtomicInteger writes = new AtomicInteger();
    GroupCommit<String, String, String> commit =
        GroupCommit.<String, String, String>writingWith(
                (lane, batch) -> {
                  if (writes.incrementAndGet() == 1) {
                    return release.asMono();
                  }
                  for (int i = 0; i < batch.size(); i++) {
                    String request = batch.request(i);
                    if (request.startsWith("bad")) {
                      batch.fail(i, new IllegalArgumentException("refused " + request));
                    } else if (!request.startsWith("nothing")) {
                      batch.succeed(i, request.toUpperCase(Locale.ROOT));
                    }
                  }
                  return Mono.empty();
                })
            .meters(meters, "test.outcomes", "Words")
            .build();

    var blocker = commit.submit("lane", "blocker").toFuture();
    var good = commit.submit("lane", "good").toFuture();
    var bad = commit.submit("lane", "bad one").toFuture();
    var nothing = commit.submit("lane", "nothing here").toFuture();
    release.tryEmitEmpty();

    assertThat(blocker.join()).isNull();
    assertThat(good.join()).isEqualTo("GOOD");
    assertThat(bad)
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableThat()
        .havingRootCause()
        .isInstanceOf(IllegalArgumentException.class)
        .withMessage("refused bad one");
    assertThat(nothing.join()).isNull();
    assertThat(writes.get()).isEqualTo(2);
  }

  @Test
  void aWriteThatFailsFailsEveryRequestOfItsBatchAndTheLaneGoesOn() {
    Sinks.Empty<Void> release = Sinks.empty();
    AtomicInteger writes = new AtomicInteger();
    GroupCommit<String, String, String> commit =
        GroupCommit.<String, String, String>writingWith(
                (lane, batch) -> {
                  if (writes.incrementAndGet() == 1) {
                    return release.asMono();
                  }
                  if (batch.requests().contains("poison")) {
                    return Mono.error(new IllegalStateException("poisoned batch"));
                  }
                  if (batch.requests().contains("thrown")) {
                    throw new IllegalStateException("failed to build the write");
                  }
                  batch.succeed(0, "written");
                  return Mono.empty();
                })
            .conflictKey(request -> request)
            .meters(meters, "test.failures", "Words")
            .build();

    var blocker = commit.submit("lane", "blocker").toFuture();
    var innocent = commit.submit("lane", "innocent").toFuture();
    var poison = commit.submit("lane", "poison").toFuture();
    release.tryEmitEmpty();
    blocker.join();

    for (CompletableFuture<String> each : List.of(innocent, poison)) {
      assertThat(each)
          .failsWithin(Duration.ofSeconds(10))
          .withThrowableThat()
          .havingRootCause()
          .withMessage("poisoned batch");
    }
    assertThat(commit.submit("lane", "thrown").toFuture())
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableThat()
        .havingRootCause()
        .withMessage("failed to build the write");
    assertThat(commit.submit("lane", "after").block(Duration.ofSeconds(10))).isEqualTo("written");
  }

  @Test
  void aRequestCancelledBeforeItsBatchBeganIsWithdrawnAndOneCancelledLaterIsStillWritten() {
    Doubler writer = new Doubler();
    GroupCommit<String, Integer, Integer> commit = doubling(writer, 100);
    Sinks.Empty<Void> release = Sinks.empty();
    writer.hold = release.asMono();
    Disposable inFlight = commit.submit("lane", 1).subscribe();
    await().until(() -> writer.batches.size() == 1);

    var kept = commit.submit("lane", 2).toFuture();
    Disposable givenUp = commit.submit("lane", 3).subscribe();
    var alsoKept = commit.submit("lane", 4).toFuture();
    assertThat(queued("test.commit")).isEqualTo(3);
    givenUp.dispose();
    assertThat(queued("test.commit")).isEqualTo(2);
    // Cancelled while its batch is written: it stays written.
    inFlight.dispose();
    writer.hold = Mono.empty();
    release.tryEmitEmpty();

    assertThat(kept.join()).isEqualTo(4);
    assertThat(alsoKept.join()).isEqualTo(8);
    assertThat(writer.batches).containsExactly(List.of(1), List.of(2, 4));
  }

  @Test
  void requestsWithTheSameConflictKeyNeverShareABatchAndKeepTheirOrder() {
    List<List<String>> batches = new CopyOnWriteArrayList<>();
    Sinks.Empty<Void> release = Sinks.empty();
    GroupCommit<String, String, String> commit =
        GroupCommit.<String, String, String>writingWith(
                (lane, batch) -> {
                  batches.add(List.copyOf(batch.requests()));
                  for (int i = 0; i < batch.size(); i++) {
                    batch.succeed(i, batch.request(i));
                  }
                  return batches.size() == 1 ? release.asMono() : Mono.empty();
                })
            .conflictKey(request -> request.startsWith("same") ? "same" : null)
            .meters(meters, "test.conflicts", "Words")
            .build();

    var blocker = commit.submit("lane", "blocker").toFuture();
    List<CompletableFuture<String>> rest = new ArrayList<>();
    for (String request : List.of("same-1", "a", "same-2", "b", "same-3")) {
      rest.add(commit.submit("lane", request).toFuture());
    }
    release.tryEmitEmpty();
    blocker.join();
    rest.forEach(CompletableFuture::join);

    assertThat(batches)
        .containsExactly(
            List.of("blocker"), List.of("same-1", "a", "b"), List.of("same-2"), List.of("same-3"));
  }

  @Test
  void eachRequestOfABatchKeepsItsOwnCallersContextAndTheWriterRunsInNone() {
    Sinks.Empty<Void> release = Sinks.empty();
    List<Optional<String>> callersSeen = new CopyOnWriteArrayList<>();
    List<Optional<String>> writerContexts = new CopyOnWriteArrayList<>();
    AtomicInteger writes = new AtomicInteger();
    GroupCommit<String, Integer, Integer> commit =
        GroupCommit.<String, Integer, Integer>writingWith(
                (lane, batch) -> {
                  for (int i = 0; i < batch.size(); i++) {
                    callersSeen.add(batch.context(i).getOrEmpty(CALLER));
                    batch.succeed(i, batch.request(i));
                  }
                  Mono<Void> write =
                      Mono.deferContextual(
                          context -> {
                            writerContexts.add(context.getOrEmpty(CALLER));
                            return Mono.empty();
                          });
                  return writes.incrementAndGet() == 1 ? release.asMono().then(write) : write;
                })
            .meters(meters, "test.contexts", "Numbers")
            .build();

    List<CompletableFuture<Integer>> sent = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String caller = "caller-" + i;
      sent.add(
          commit.submit("lane", i).contextWrite(context -> context.put(CALLER, caller)).toFuture());
    }
    var anonymous = commit.submit("lane", 6).toFuture();
    release.tryEmitEmpty();
    sent.forEach(CompletableFuture::join);
    anonymous.join();

    // The first request went alone; the other six together, each with its own caller's context.
    assertThat(writes.get()).isEqualTo(2);
    assertThat(callersSeen)
        .containsExactly(
            Optional.of("caller-0"),
            Optional.of("caller-1"),
            Optional.of("caller-2"),
            Optional.of("caller-3"),
            Optional.of("caller-4"),
            Optional.of("caller-5"),
            Optional.empty());
    assertThat(writerContexts).containsOnly(Optional.empty());
  }

  private int queued(String prefix) {
    return (int) meters.get(prefix + ".queued").gauge().value();
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> numbers = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      numbers.add(i);
    }
    return numbers;
  }
}
