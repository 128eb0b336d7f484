package io.agentteams.mailbox.message.domain;

import java.util.Locale;

/** Whether a message goes to one member or to every member but its sender. */
public enum MessageKind {
  DIRECT,
  BROADCAST;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static MessageKind fromWire(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
