package io.agentteams.platform.support;

import io.agentteams.contracts.EventPayload;

/** A payload for platform tests: which key, which position in that key's order, some filler. */
public record TestEvent(String key, long position, String filler) implements EventPayload {

  public static final String TYPE = "TestEvent";

  @Override
  public String eventType() {
    return TYPE;
  }
}
