package io.agentteams.gateway.console.view;

/**
 * Counts text as the services do: characters are Unicode code points (an emoji is one) and bytes
 * are UTF-8 bytes. The console's counters in the browser count the same way.
 */
public record TextMeasure(int chars, int bytes) {

  /** Measures a text; an unpaired surrogate counts as the three bytes of its replacement. */
  public static TextMeasure of(String text) {
    int chars = 0;
    int bytes = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      chars++;
      bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
    return new TextMeasure(chars, bytes);
  }

  /** Whether the text fits both bounds. */
  public boolean fits(int maxChars, int maxBytes) {
    return chars <= maxChars && bytes <= maxBytes;
  }
}
