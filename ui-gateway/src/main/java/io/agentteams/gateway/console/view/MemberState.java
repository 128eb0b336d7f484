package io.agentteams.gateway.console.view;

import java.util.Locale;

/** What a member of a team is doing, as the roster shows it. */
public enum MemberState {
  WAITING_INPUT("waiting for input"),
  RUNNING("running"),
  NO_WORKER("no worker connected"),
  QUEUED("queued"),
  FAILED("failed"),
  IDLE("idle");

  private final String label;

  MemberState(String label) {
    this.label = label;
  }

  /** The state as a person reads it. */
  public String label() {
    return label;
  }

  /** The state's name in markup (a class and a data attribute). */
  public String key() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
