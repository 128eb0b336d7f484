package io.agentteams.team.teams.domain;

import java.util.Locale;

/** Where a team is in its lifecycle. */
public enum TeamStatus {
  PROVISIONING,
  READY,
  FAILED,
  DISCONNECTED,
  DELETED;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TeamStatus fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
