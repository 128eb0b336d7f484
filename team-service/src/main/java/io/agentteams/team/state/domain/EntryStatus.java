package io.agentteams.team.state.domain;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Whether an entry is part of the members' automatic context; archived entries keep their slot. */
public enum EntryStatus {
  ACTIVE,
  ARCHIVED;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status a wire name denotes, or a problem naming the accepted ones. */
  public static EntryStatus fromWire(@Nullable String value) {
    if (value != null) {
      for (EntryStatus status : values()) {
        if (status.wire().equals(value)) {
          return status;
        }
      }
    }
    throw StateProblems.invalidEntryStatus(value);
  }
}
