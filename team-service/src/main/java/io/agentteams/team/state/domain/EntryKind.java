package io.agentteams.team.state.domain;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** What a public state entry is about; fixed when it is published. */
public enum EntryKind {
  OBJECTIVE,
  PLAN,
  FINDING,
  QUESTION,
  REQUIREMENT;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind a wire name denotes, or a problem naming the accepted ones. */
  public static EntryKind fromWire(@Nullable String value) {
    if (value != null) {
      for (EntryKind kind : values()) {
        if (kind.wire().equals(value)) {
          return kind;
        }
      }
    }
    throw StateProblems.invalidEntryKind(value);
  }
}
