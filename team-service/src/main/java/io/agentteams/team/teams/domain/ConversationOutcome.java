package io.agentteams.team.teams.domain;

import java.util.Locale;

/** What ensuring a conversation found and did. */
public enum ConversationOutcome {
  /** The runtime keeps no conversations (pull agents): allocating the id was all it took. */
  ALLOCATED,
  /** The runtime did not have the conversation and created it under the recorded id. */
  CREATED,
  /** The runtime already had the conversation; it was left unchanged. */
  EXISTING;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ConversationOutcome fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
