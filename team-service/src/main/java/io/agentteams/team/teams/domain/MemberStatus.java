package io.agentteams.team.teams.domain;

import java.util.Locale;

/** Where a member's conversation is in the current provisioning round. */
public enum MemberStatus {
  /** Its provisioning record is written; the conversation is not yet known to be ensured. */
  PENDING,
  /** Its conversation is ensured. */
  ENSURED,
  /** Provisioning gave up on it. */
  FAILED,
  /** Another member failed, so this one was not attempted further in this round. */
  ABANDONED;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static MemberStatus fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
