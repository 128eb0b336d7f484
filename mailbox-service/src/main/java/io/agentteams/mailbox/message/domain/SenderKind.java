package io.agentteams.mailbox.message.domain;

import java.util.Locale;

/** Who may send: a member of the team, the team's owner (a person), or the system. */
public enum SenderKind {
  MEMBER,
  OWNER,
  SYSTEM;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static SenderKind fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
