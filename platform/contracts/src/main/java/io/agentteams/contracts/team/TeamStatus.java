package io.agentteams.contracts.team;

import java.util.Locale;

/**
 * Where a team is in its lifecycle ({@code provisioning → ready | failed}, {@code ready ⇄
 * disconnected}, {@code deleted}), as team events carry it and every service's roster holds it.
 */
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

  /** The status with that wire name. */
  public static TeamStatus fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
