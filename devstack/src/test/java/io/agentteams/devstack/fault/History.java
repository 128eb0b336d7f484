package io.agentteams.devstack.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.json.JsonMapper;

/**
 * The record of a workload's operations, each with its invocation and completion time, what the
 * client learned, and the values it sent and got. Thread-safe; written out as JSON lines.
 *
 * @param <V> what one operation carries
 */
public final class History<V> {

  /**
   * One operation.
   *
   * @param index its place in the record
   * @param process the client (thread) that did it
   * @param type what it was, e.g. {@code send}
   * @param value what it sent and, when it completed, what it got
   * @param outcome what the client learned
   * @param invokedNanos when it was sent ({@link System#nanoTime()})
   * @param completedNanos when the answer (or the failure) came
   * @param detail the status or error, for evidence
   */
  public record Op<V>(
      long index,
      String process,
      String type,
      V value,
      Outcome outcome,
      long invokedNanos,
      long completedNanos,
      String detail) {}

  private static final JsonMapper json = JsonMapper.builder().build();

  private final List<Op<V>> ops = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong next = new AtomicLong();

  /** Records a completed operation. */
  public Op<V> record(
      String process,
      String type,
      V value,
      Outcome outcome,
      long invokedNanos,
      long completedNanos,
      String detail) {
    Op<V> op =
        new Op<>(
            next.getAndIncrement(),
            process,
            type,
            value,
            outcome,
            invokedNanos,
            completedNanos,
            detail);
    ops.add(op);
    return op;
  }

  /** Every operation so far, in the order they completed. */
  public List<Op<V>> ops() {
    synchronized (ops) {
      return List.copyOf(ops);
    }
  }

  /** The operations of one type. */
  public List<Op<V>> ops(String type) {
    return ops().stream().filter(op -> op.type().equals(type)).toList();
  }

  public int size() {
    return ops.size();
  }

  /** The first operation of the type invoked at or after the moment that completed as OK. */
  public long firstOkAfter(String type, long nanos) {
    return ops().stream()
        .filter(op -> op.type().equals(type))
        .filter(op -> op.outcome() == Outcome.OK && op.invokedNanos() >= nanos)
        .mapToLong(Op::completedNanos)
        .min()
        .orElse(Long.MAX_VALUE);
  }

  /** Writes the record as JSON lines, one operation a line, for a person or another checker. */
  public void writeTo(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        for (Op<V> op : ops()) {
          out.write(json.writeValueAsString(op));
          out.write('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
