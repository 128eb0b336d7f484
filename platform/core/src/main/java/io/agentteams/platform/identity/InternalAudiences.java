package io.agentteams.platform.identity;

import java.util.List;

/**
 * Each service is the audience of its own internal tokens, named by its application name: the
 * gateway signs every call for the one service it calls, and a service accepts only tokens for
 * itself, so a token one service received is worthless at every other.
 */
public final class InternalAudiences {

  /** team-service's audience. */
  public static final String TEAM = "team-service";

  /** mailbox-service's audience. */
  public static final String MAILBOX = "mailbox-service";

  /** task-board-service's audience. */
  public static final String TASK_BOARD = "task-board-service";

  /** scheduler-service's audience. */
  public static final String SCHEDULER = "scheduler-service";

  /** Every service's audience. */
  public static final List<String> ALL = List.of(TEAM, MAILBOX, TASK_BOARD, SCHEDULER);

  private InternalAudiences() {}
}
