package io.agentteams.mailbox.paging.application;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps a response within a number of UTF-8 JSON bytes, counted exactly as the response is written
 * (same mapper, so escaping and multi-byte characters count as they will on the wire).
 */
public final class ResponseBudget {

  private final JsonMapper json;
  private final int maxBytes;

  public ResponseBudget(JsonMapper json, int maxBytes) {
    if (maxBytes < 1024) {
      throw new IllegalArgumentException("a response budget below 1 KiB leaves no room for data");
    }
    this.json = json;
    this.maxBytes = maxBytes;
  }

  /** The budget in bytes. */
  public int maxBytes() {
    return maxBytes;
  }

  /** The size of a response as it will be written. */
  public int size(Object response) {
    return json.writeValueAsBytes(response).length;
  }

  /**
   * Takes records in order while the response still fits. Whole records only, except that a first
   * record too large on its own is shortened to fit, so a page is never empty just because one
   * record is large.
   *
   * @param candidates records in page order
   * @param render the response holding the given records
   * @param shorten the record with its text cut to at most the given number of UTF-8 bytes (and
   *     marked truncated)
   * @return the records that fit, and whether any candidate was left out
   */
  public <R> Fit<R> fit(List<R> candidates, Function<List<R>, ?> render, Shortener<R> shorten) {
    List<R> taken = new ArrayList<>();
    for (R candidate : candidates) {
      taken.add(candidate);
      if (size(render.apply(taken)) <= maxBytes) {
        continue;
      }
      taken.remove(taken.size() - 1);
      if (taken.isEmpty()) {
        taken.add(shortenToFit(candidate, r -> render.apply(List.of(r)), shorten));
        return new Fit<>(taken, candidates.size() > 1);
      }
      return new Fit<>(taken, true);
    }
    return new Fit<>(taken, false);
  }

  /**
   * One record in a response of its own, shortened if it does not fit.
   *
   * @param record the record
   * @param render the response holding it
   * @param shorten as for {@link #fit}
   */
  public <R> R fitOne(R record, Function<R, ?> render, Shortener<R> shorten) {
    if (size(render.apply(record)) <= maxBytes) {
      return record;
    }
    return shortenToFit(record, render, shorten);
  }

  private <R> R shortenToFit(R record, Function<R, ?> render, Shortener<R> shorten) {
    // The largest text length (in UTF-8 bytes) that still fits; size grows with it. The whole text
    // did not fit, so at least one character goes (a "truncated" flag on an uncut text would lie).
    int low = 0;
    int high = Math.max(0, shorten.textBytes(record) - 1);
    R best = shorten.cut(record, 0);
    if (size(render.apply(best)) > maxBytes) {
      throw new IllegalStateException("a record without text exceeds the response budget");
    }
    while (low < high) {
      int middle = low + (high - low + 1) / 2;
      R candidate = shorten.cut(record, middle);
      if (size(render.apply(candidate)) <= maxBytes) {
        low = middle;
        best = candidate;
      } else {
        high = middle - 1;
      }
    }
    return best;
  }

  /**
   * The records of a response and whether some were left out for lack of room.
   *
   * @param records the records that fit
   * @param cut whether candidates were left out
   */
  public record Fit<R>(List<R> records, boolean cut) {}

  /** Cuts the text of one kind of record. */
  public interface Shortener<R> {

    /** The UTF-8 length of the record's text as it stands. */
    int textBytes(R record);

    /**
     * The record with its text cut to at most {@code maxBytes} UTF-8 bytes and marked truncated.
     */
    R cut(R record, int maxBytes);
  }
}
