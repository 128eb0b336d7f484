package io.agentteams.devstack.fuzz;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Values of every awkward shape for text, numbers and ids: lengths at and around the product's
 * bounds (in characters and in UTF-8 bytes), text that is valid Unicode but hard (combining marks,
 * right-to-left, zero-width, NUL, four-byte characters) and text that is not (unpaired surrogates),
 * huge and non-integral numbers, and ids of every shape.
 */
final class Awkward {

  /** Around every bound the design names (names, titles, goals, texts, answers, JSON budgets). */
  private static final int[] LENGTHS = {
    0, 1, 2, 63, 64, 65, 79, 80, 81, 159, 160, 161, 199, 200, 201, 499, 500, 501, 999, 1000, 1001,
    1999, 2000, 2001, 3999, 4000, 4001, 5999, 6000, 6001, 7999, 8000, 8001, 16000, 16001, 24001
  };

  /** One character of each kind a bound counts differently (UTF-16 units, UTF-8 bytes). */
  private static final String[] UNITS = {
    "a", "é", "€", "😀", "e\u0301", "\u202e", "\u200b", "\u0000", "\ud800", "\udc00", "\n", "\"",
    "\\", "<", "%"
  };

  private static final String[] SPECIAL = {
    "",
    " ",
    "null",
    "undefined",
    "true",
    "0",
    "-1",
    "../..",
    "%2e%2e%2f",
    "<script>x</script>",
    "' OR '1'='1",
    "{{7*7}}",
    "${jndi:ldap://127.0.0.1/x}",
    "\u0000",
    "\ud83d",
    "a\u0000b",
    "\u202eevil",
    "x".repeat(100_000)
  };

  private Awkward() {}

  /** Text of an awkward length made of one kind of character, or a special string. */
  static Arbitrary<String> text() {
    Arbitrary<String> sized =
        Arbitraries.of(UNITS)
            .flatMap(unit -> Arbitraries.of(box(LENGTHS)).map(length -> repeatTo(unit, length)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, sized), net.jqwik.api.Tuple.of(2, Arbitraries.of(SPECIAL)));
  }

  /**
   * JSON number literals, as text: at, around and far beyond every integer range, and fractions.
   */
  static Arbitrary<String> number() {
    return Arbitraries.of(
        "0",
        "-1",
        "1",
        "2",
        "7",
        "8",
        "9",
        "12",
        "13",
        "20",
        "21",
        "100",
        "101",
        "1.5",
        "-0.0",
        "1e3",
        "1e-7",
        "2147483647",
        "2147483648",
        "-2147483649",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "1e309",
        "123456789012345678901234567890");
  }

  /** A path segment where an id goes: of every shape, percent-encoded where it must be. */
  static Arbitrary<String> idSegment() {
    return Arbitraries.of(
        "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "6F9619FF-8B86-D011-B42D-00C04FC964FF",
        "6f9619ff8b86d011b42d00c04fc964ff",
        "not-a-uuid",
        "0",
        "-1",
        "1",
        "1.5",
        "9223372036854775808",
        "99999999999999999999999",
        "%20",
        "%00",
        "%2e%2e",
        "%C3%A9",
        "%F0%9F%98%80",
        "%ED%A0%80",
        "a".repeat(300),
        "a".repeat(5000),
        "null",
        "m0",
        "M0",
        "lead",
        "nobody");
  }

  private static Integer[] box(int[] values) {
    Integer[] boxed = new Integer[values.length];
    for (int i = 0; i < values.length; i++) {
      boxed[i] = values[i];
    }
    return boxed;
  }

  private static String repeatTo(String unit, int length) {
    if (length == 0) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    int total = 0;
    while (total < length) {
      parts.add(unit);
      total += unit.length();
    }
    return String.join("", parts);
  }
}
