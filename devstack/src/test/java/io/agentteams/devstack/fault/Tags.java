package io.agentteams.devstack.fault;

import java.util.Locale;
import java.util.UUID;

/** Short unique names for what a scenario creates (ids allow letters, digits, '-' and '.'). */
final class Tags {

  private Tags() {}

  /** The scenario's name in lowercase words joined by '-', cut short, with a unique suffix. */
  static String of(String scenario) {
    String words = scenario.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    words = words.substring(0, Math.min(words.length(), 24)).replaceAll("-+$", "");
    return words + "-" + UUID.randomUUID().toString().substring(0, 6);
  }
}
