package io.agentteams.team.agents.domain;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** How an agent runs: its worker pulls jobs, or this system pushes them by webhook or A2A. */
public enum RuntimeKind {
  /** An agent worker holds a stream and pulls jobs; it keeps no conversations for us to create. */
  PULL,
  /** Signed HTTP push to the agent's endpoint. */
  WEBHOOK,
  /** The Agent2Agent protocol's message/task API at the agent's endpoint. */
  A2A;

  /** The lowercase name used on the wire and in the database. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether agents of this kind are reached at an endpoint. */
  public boolean needsEndpoint() {
    return this != PULL;
  }

  /** The kind a wire name denotes, or a problem naming the accepted ones. */
  public static RuntimeKind fromWire(@Nullable String value) {
    if (value != null) {
      for (RuntimeKind kind : values()) {
        if (kind.wire().equals(value)) {
          return kind;
        }
      }
    }
    throw AgentProblems.invalidRuntimeKind(value);
  }
}
