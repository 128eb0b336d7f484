package io.agentteams.platform.groupcommit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.util.context.ContextView;

/**
 * Group commit: while one batch of a lane is being written, the requests that arrive for that lane
 * wait, then go together in the lane's next batch. Nothing waits for a timer: a lone request is
 * written at once, and batches grow only with contention. Lanes are written independently of each
 * other; a lane is whatever must be written one batch at a time (a team, or everything).
 *
 * <p>Each request gets its own outcome: the {@link Writer} records a result or a failure per
 * request on the {@link Batch}, and the outcomes are delivered once the write completed (for a
 * transaction: after its commit). If the write fails, every request of the batch fails with its
 * error. A request whose caller cancels before its batch began is withdrawn and never written; once
 * its batch began, it is written whatever the caller does. Two requests with the same {@linkplain
 * Builder#conflictKey conflict key} never share a batch: the later waits for a following one. The
 * writer runs with no caller's Reactor context; it finds each request's own with {@link
 * Batch#context(int)}, so that each event it writes can carry the trace of the request that caused
 * it.
 *
 * <p>This is an optimisation within one process, never coordination: what a batch may write is
 * decided by the database (row guards, locks), so replicas batching their own requests side by side
 * stay correct.
 *
 * <p>Meters, under the prefix given to {@link Builder#meters}: {@code .batch.size} (requests per
 * batch), {@code .queued} (requests waiting), {@code .batch.time} (or the name given to {@link
 * Builder#batchTimer}) and, if asked for, {@code .queue.wait}.
 *
 * @param <K> what a lane is keyed by
 * @param <R> a request
 * @param <T> a request's result
 */
public final class GroupCommit<K, R, T> {

  /**
   * Writes one batch.
   *
   * @param <K> what a lane is keyed by
   * @param <R> a request
   * @param <T> a request's result
   */
  @FunctionalInterface
  public interface Writer<K, R, T> {

    /**
     * Writes the batch's requests together (in one transaction or one statement) and records each
     * one's outcome with {@link Batch#succeed} or {@link Batch#fail}; a request given neither
     * completes empty.
     *
     * @return completes once the batch is written and committed; an error fails every request
     */
    Mono<?> write(K lane, Batch<R, T> batch);
  }

  private final Writer<K, R, T> writer;
  private final int maxBatch;
  private final @Nullable Function<? super R, ?> conflictKey;
  private final boolean keepIdleLanes;
  private final ConcurrentHashMap<K, Lane<R, T>> lanes = new ConcurrentHashMap<>();
  private final Function<K, Lane<R, T>> newLane = key -> new Lane<>();
  private final DistributionSummary batchSizes;
  private final Timer batchTimes;
  private final @Nullable Timer queueWaits;

  private GroupCommit(Builder<K, R, T> builder, MeterRegistry meters, String prefix) {
    this.writer = builder.writer;
    this.maxBatch = builder.maxBatch;
    this.conflictKey = builder.conflictKey;
    this.keepIdleLanes = builder.keepIdleLanes;
    String what = builder.what;
    this.batchSizes =
        DistributionSummary.builder(prefix + ".batch.size")
            .description(what + " written together in one batch")
            .register(meters);
    this.batchTimes =
        Timer.builder(
                builder.batchTimerName == null ? prefix + ".batch.time" : builder.batchTimerName)
            .description(
                builder.batchTimerDescription == null
                    ? "Time to write one batch of "
                        + what.toLowerCase(Locale.ROOT)
                        + " and commit it"
                    : builder.batchTimerDescription)
            .register(meters);
    this.queueWaits =
        builder.timeQueueWait
            ? Timer.builder(prefix + ".queue.wait")
                .description(
                    "Time from one of the "
                        + what.toLowerCase(Locale.ROOT)
                        + " being queued to the start of the batch that writes it")
                .register(meters)
            : null;
    Gauge.builder(prefix + ".queued", this, GroupCommit::waiting)
        .description(what + " waiting for a batch")
        .register(meters);
  }

  /** Starts describing a group commit that writes its batches with the writer. */
  public static <K, R, T> Builder<K, R, T> writingWith(Writer<K, R, T> writer) {
    return new Builder<>(writer);
  }

  /**
   * Writes the request in the lane's next batch.
   *
   * @return its result once its batch committed; empty when the writer gave it none
   */
  public Mono<T> submit(K lane, R request) {
    return Mono.create(
        sink ->
            enqueue(
                lane, new Pending<>(request, sink, queueWaits == null ? 0L : System.nanoTime())));
  }

  private void enqueue(K key, Pending<R, T> pending) {
    Lane<R, T> lane;
    boolean start;
    while (true) {
      lane = lanes.computeIfAbsent(key, newLane);
      synchronized (lane) {
        // A lane that went idle was removed from the map; its last users retry with a fresh one.
        if (lane.retired) {
          continue;
        }
        pending.lane = lane;
        lane.queue.add(pending);
        start = !lane.busy;
        lane.busy = true;
        break;
      }
    }
    // Runs the withdrawal at once if the caller already cancelled.
    pending.sink.onCancel(pending);
    if (start) {
      next(key, lane);
    }
  }

  /** Writes the lane's next batch, or lets the lane go idle when nothing waits. */
  private void next(K key, Lane<R, T> lane) {
    List<Pending<R, T>> taken = new ArrayList<>();
    Function<? super R, ?> conflicts = conflictKey;
    synchronized (lane) {
      Set<Object> inBatch = conflicts == null ? Set.of() : new HashSet<>();
      Iterator<Pending<R, T>> waiting = lane.queue.iterator();
      while (waiting.hasNext() && taken.size() < maxBatch) {
        Pending<R, T> pending = waiting.next();
        Object conflict = conflicts == null ? null : conflicts.apply(pending.request);
        if (conflict == null || inBatch.add(conflict)) {
          taken.add(pending);
          waiting.remove();
        }
      }
      if (taken.isEmpty()) {
        lane.busy = false;
        if (!keepIdleLanes) {
          lane.retired = true;
          lanes.remove(key, lane);
        }
        return;
      }
    }
    write(key, lane, taken);
  }

  private void write(K key, Lane<R, T> lane, List<Pending<R, T>> taken) {
    batchSizes.record(taken.size());
    long started = System.nanoTime();
    if (queueWaits != null) {
      for (Pending<R, T> pending : taken) {
        queueWaits.record(started - pending.queuedAt, TimeUnit.NANOSECONDS);
      }
    }
    Batch<R, T> batch = new Batch<>(taken);
    // Deferred, so that even a failure while building the write reaches the batch's callers and
    // lets the lane move on. The callers are answered before the lane's next batch is taken: a
    // caller that goes on at once (one request after another) queues its next request behind
    // this batch's peers' instead of starting a batch alone, which keeps batches full.
    Mono.defer(() -> writer.write(key, batch))
        .subscribe(
            ignored -> {},
            error -> {
              batchTimes.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
              batch.failAll(error);
              next(key, lane);
            },
            () -> {
              batchTimes.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
              batch.deliver();
              next(key, lane);
            });
  }

  private int waiting() {
    int waiting = 0;
    for (Lane<R, T> lane : lanes.values()) {
      synchronized (lane) {
        waiting += lane.queue.size();
      }
    }
    return waiting;
  }

  /** A lane's waiting requests; {@code busy} while one of its batches is written. */
  private static final class Lane<R, T> {
    final ArrayDeque<Pending<R, T>> queue = new ArrayDeque<>();
    boolean busy;
    boolean retired;
  }

  /** A request waiting for its batch; disposing it withdraws it if it is still waiting. */
  private static final class Pending<R, T> implements Disposable {
    final R request;
    final MonoSink<T> sink;
    final long queuedAt;
    volatile @Nullable Lane<R, T> lane;

    Pending(R request, MonoSink<T> sink, long queuedAt) {
      this.request = request;
      this.sink = sink;
      this.queuedAt = queuedAt;
    }

    @Override
    public void dispose() {
      Lane<R, T> joined = lane;
      if (joined != null) {
        synchronized (joined) {
          joined.queue.remove(this);
        }
      }
    }
  }

  /**
   * The requests of one batch, in the order they arrived, and the outcome the writer gives each.
   *
   * @param <R> a request
   * @param <T> a request's result
   */
  public static final class Batch<R, T> {

    private final List<Pending<R, T>> pending;
    private final @Nullable Object[] outcomes;
    private final List<R> requests;

    Batch(List<Pending<R, T>> pending) {
      this.pending = pending;
      this.outcomes = new Object[pending.size()];
      this.requests =
          new AbstractList<>() {
            @Override
            public R get(int index) {
              return pending.get(index).request;
            }

            @Override
            public int size() {
              return pending.size();
            }
          };
    }

    /** How many requests the batch holds. */
    public int size() {
      return pending.size();
    }

    /** The request at the index. */
    public R request(int index) {
      return pending.get(index).request;
    }

    /** The requests, in the order they arrived (a read-only view). */
    public List<R> requests() {
      return requests;
    }

    /**
     * The Reactor context of the caller of the request at the index: the writer runs in none of
     * them, so this is where it finds what belongs to each request, such as the span whose trace
     * the request's events carry.
     */
    public ContextView context(int index) {
      return pending.get(index).sink.contextView();
    }

    /** Gives the request at the index its result, delivered once the batch committed. */
    public void succeed(int index, T result) {
      outcomes[index] = Objects.requireNonNull(result, "result");
    }

    /** Fails the request at the index alone, once the batch committed. */
    public void fail(int index, Throwable error) {
      outcomes[index] = new Failure(Objects.requireNonNull(error, "error"));
    }

    @SuppressWarnings("unchecked")
    void deliver() {
      for (int i = 0; i < outcomes.length; i++) {
        Object outcome = outcomes[i];
        MonoSink<T> sink = pending.get(i).sink;
        if (outcome == null) {
          sink.success();
        } else if (outcome instanceof Failure failure) {
          sink.error(failure.error());
        } else {
          sink.success((T) outcome);
        }
      }
    }

    void failAll(Throwable error) {
      for (Pending<R, T> each : pending) {
        each.sink.error(error);
      }
    }
  }

  /** One request's own failure, told apart from results by its type, which no caller can use. */
  private record Failure(Throwable error) {}

  /**
   * Describes a group commit; {@link #build} makes it.
   *
   * @param <K> what a lane is keyed by
   * @param <R> a request
   * @param <T> a request's result
   */
  public static final class Builder<K, R, T> {
    private final Writer<K, R, T> writer;
    private int maxBatch = 64;
    private @Nullable Function<? super R, ?> conflictKey;
    private boolean keepIdleLanes;
    private @Nullable MeterRegistry meters;
    private String prefix = "";
    private String what = "Requests";
    private boolean timeQueueWait;
    private @Nullable String batchTimerName;
    private @Nullable String batchTimerDescription;

    private Builder(Writer<K, R, T> writer) {
      this.writer = writer;
    }

    /** The most requests one batch holds (64 unless set). */
    public Builder<K, R, T> maxBatch(int maxBatch) {
      if (maxBatch < 1) {
        throw new IllegalArgumentException("a batch holds at least one request");
      }
      this.maxBatch = maxBatch;
      return this;
    }

    /**
     * What two requests of one batch must not share: a request whose key (when not null) equals
     * that of a request already in the batch waits for a following batch, keeping its place.
     */
    public Builder<K, R, T> conflictKey(Function<? super R, ?> conflictKey) {
      this.conflictKey = conflictKey;
      return this;
    }

    /**
     * Keeps a lane when it goes idle, for a small fixed set of lanes (one for everything, say);
     * otherwise an idle lane is dropped, as suits lanes per team.
     */
    public Builder<K, R, T> keepIdleLanes() {
      this.keepIdleLanes = true;
      return this;
    }

    /**
     * Where the meters go.
     *
     * @param prefix the meters' common name, e.g. {@code agentteams.mailbox.send}
     * @param what the requests in words, capitalised, for the meters' descriptions, e.g. "Sends"
     */
    public Builder<K, R, T> meters(MeterRegistry meters, String prefix, String what) {
      this.meters = meters;
      this.prefix = prefix;
      this.what = what;
      return this;
    }

    /**
     * Also times each request's wait for its batch ({@code .queue.wait}); it reads the clock once
     * more per request.
     */
    public Builder<K, R, T> timeQueueWait() {
      this.timeQueueWait = true;
      return this;
    }

    /** Names the timer of a batch's write, instead of {@code <prefix>.batch.time}. */
    public Builder<K, R, T> batchTimer(String name, String description) {
      this.batchTimerName = name;
      this.batchTimerDescription = description;
      return this;
    }

    public GroupCommit<K, R, T> build() {
      if (meters == null) {
        throw new IllegalStateException("a group commit needs its meters");
      }
      return new GroupCommit<>(this, meters, prefix);
    }
  }
}
