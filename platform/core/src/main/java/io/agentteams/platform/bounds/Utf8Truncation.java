package io.agentteams.platform.bounds;

/** Cuts text to a UTF-8 byte budget without splitting a character. */
public final class Utf8Truncation {

  private Utf8Truncation() {}

  /** A text cut to at most {@code maxBytes} UTF-8 bytes, and whether anything was cut. */
  public record Cut(String text, boolean truncated) {}

  /** The longest prefix of whole code points whose UTF-8 form fits in {@code maxBytes}. */
  public static Cut cut(String value, int maxBytes) {
    int bytes = 0;
    int i = 0;
    while (i < value.length()) {
      int codePoint = value.codePointAt(i);
      int width = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
      if (bytes + width > maxBytes) {
        return new Cut(value.substring(0, i), true);
      }
      bytes += width;
      i += Character.charCount(codePoint);
    }
    return new Cut(value, false);
  }
}
