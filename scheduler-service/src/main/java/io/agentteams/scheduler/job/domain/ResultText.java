package io.agentteams.scheduler.job.domain;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.bounds.Utf8Truncation;

/** Final answers and errors as stored with a job: at most a byte budget, notice included. */
public final class ResultText {

  /** Bytes kept free for the notice; a limit below this cannot be configured. */
  static final int NOTICE_RESERVE = 96;

  private ResultText() {}

  /** A text within {@code maxBytes} UTF-8 bytes and whether it had to be cut. */
  public record Capped(String text, boolean truncated) {}

  /**
   * The text as it fits in {@code maxBytes}: unchanged when it fits, otherwise its longest prefix
   * of whole characters followed by a notice saying how long the original was.
   */
  public static Capped cap(String text, int maxBytes) {
    int bytes = TextBound.measure("result", text).bytes();
    if (bytes <= maxBytes) {
      return new Capped(text, false);
    }
    String notice = "\n\n[truncated: the original was " + bytes + " bytes; " + maxBytes + " kept]";
    int room = maxBytes - TextBound.utf8Length(notice);
    return new Capped(Utf8Truncation.cut(text, room).text() + notice, true);
  }
}
