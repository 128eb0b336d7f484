package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/** How the console writes times, ids and excerpts; templates reach it as {@code fmt}. */
public final class Format {

  /** The one instance templates use. */
  public static final Format INSTANCE = new Format();

  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private Format() {}

  /** The time of day (UTC), e.g. {@code 14:03:07}. */
  public String clock(@Nullable Instant instant) {
    return instant == null ? "" : CLOCK.format(instant);
  }

  /** Date and time (UTC), e.g. {@code 2026-12-01 14:03 UTC}. */
  public String date(@Nullable Instant instant) {
    return instant == null ? "" : DATE.format(instant);
  }

  /** ISO-8601, for {@code datetime} attributes. */
  public String iso(@Nullable Instant instant) {
    return instant == null ? "" : instant.toString();
  }

  /** Milliseconds since the epoch, for ordering. */
  public long millis(@Nullable Instant instant) {
    return instant == null ? 0 : instant.toEpochMilli();
  }

  /** The first {@code max} characters of a text on one line, with an ellipsis when cut. */
  public String excerpt(@Nullable String text, int max) {
    if (text == null) {
      return "";
    }
    String line = text.strip().replaceAll("\\s+", " ");
    if (line.codePointCount(0, line.length()) <= max) {
      return line;
    }
    return line.substring(0, line.offsetByCodePoints(0, max)) + "…";
  }

  /** The first eight characters of an id, for display next to its full form. */
  public String shortId(@Nullable Object id) {
    if (id == null) {
      return "";
    }
    String text = id.toString();
    return text.length() <= 8 ? text : text.substring(0, 8);
  }

  /** How long from one instant to another, e.g. {@code 850 ms}, {@code 12 s}, {@code 3 min 5 s}. */
  public String duration(@Nullable Instant from, @Nullable Instant to) {
    if (from == null || to == null) {
      return "";
    }
    long millis = Math.max(0, java.time.Duration.between(from, to).toMillis());
    if (millis < 1000) {
      return millis + " ms";
    }
    long seconds = millis / 1000;
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min " + seconds % 60 + " s";
    }
    return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
  }

  /** A count with thousands separators, e.g. {@code 12,345}. */
  public String number(long n) {
    return String.format(java.util.Locale.ENGLISH, "%,d", n);
  }

  /**
   * A lifetime in whole units a person reads: {@code 1 hour}, {@code 12 hours}, {@code 30 minutes}.
   */
  public String lifetime(long seconds) {
    if (seconds >= 3600 && seconds % 3600 == 0) {
      return plural(seconds / 3600, "hour");
    }
    if (seconds >= 60) {
      return plural(seconds / 60, "minute");
    }
    return plural(seconds, "second");
  }

  private static String plural(long n, String unit) {
    return n + " " + unit + (n == 1 ? "" : "s");
  }

  /** Characters (code points) and UTF-8 bytes of a text. */
  public TextMeasure measure(@Nullable String text) {
    return TextMeasure.of(text == null ? "" : text);
  }
}
