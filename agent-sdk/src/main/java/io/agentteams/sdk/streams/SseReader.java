package io.agentteams.sdk.streams;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Reads server-sent events from a stream as the HTML specification defines them: {@code event},
 * {@code data} (several lines joined), {@code id}; comments (heartbeats) are skipped, and a blank
 * line ends an event.
 */
public final class SseReader implements Closeable {

  private final BufferedReader lines;
  private final Runnable onLine;

  public SseReader(InputStream body) {
    this(body, () -> {});
  }

  /**
   * @param onLine called for every line read, heartbeat comments included, so a caller can tell a
   *     quiet stream from a dead one
   */
  public SseReader(InputStream body, Runnable onLine) {
    this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    this.onLine = onLine;
  }

  /** The next event, or null when the stream ended. */
  public @Nullable ServerSentEvent next() throws IOException {
    String id = null;
    String event = null;
    StringBuilder data = null;
    String line;
    while ((line = lines.readLine()) != null) {
      onLine.run();
      if (line.isEmpty()) {
        if (data != null) {
          return new ServerSentEvent(id, event == null ? "message" : event, data.toString());
        }
        id = null;
        event = null;
        continue;
      }
      if (line.startsWith(":")) {
        continue;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "event" -> event = value;
        case "id" -> id = value;
        case "data" ->
            data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        default -> {}
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
