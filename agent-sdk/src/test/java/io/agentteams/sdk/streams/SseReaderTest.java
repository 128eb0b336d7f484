package io.agentteams.sdk.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SseReaderTest {

  @Test
  void readsEventsJoinsDataLinesSkipsCommentsAndCountsEveryLine() throws Exception {
    String stream =
        ":connected\n\n"
            + "id: 1\nevent: job\ndata: {\"a\":1}\n\n"
            + ":heartbeat\n\n"
            + "data:first\ndata: second\n\n"
            + "id: 3\nevent: job\n";
    AtomicInteger lines = new AtomicInteger();
    try (SseReader reader =
        new SseReader(
            new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)),
            lines::incrementAndGet)) {
      assertThat(reader.next()).isEqualTo(new ServerSentEvent("1", "job", "{\"a\":1}"));
      assertThat(reader.next()).isEqualTo(new ServerSentEvent(null, "message", "first\nsecond"));
      assertThat(reader.next()).as("an event cut off before its blank line is not one").isNull();
    }
    assertThat(lines.get()).isEqualTo(13);
  }
}
