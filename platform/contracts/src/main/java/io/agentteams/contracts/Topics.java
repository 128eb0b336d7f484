package io.agentteams.contracts;

import java.util.List;

/** Kafka topic names. Every domain event is keyed by its team id. */
public final class Topics {

  /** Team lifecycle, roster and public state events, published by team-service. */
  public static final String TEAM_EVENTS = "agentteams.team.events";

  /** Message, delivery and read events, published by mailbox-service. */
  public static final String MAILBOX_EVENTS = "agentteams.mailbox.events";

  /** Task board events, published by task-board-service. */
  public static final String TASK_EVENTS = "agentteams.taskboard.events";

  /** Job, admission and dispatch events, published by scheduler-service. */
  public static final String SCHEDULER_EVENTS = "agentteams.scheduler.events";

  /**
   * How agents run and the secrets their pushes are signed with, published by team-service for the
   * scheduler alone; compacted, so only each agent's latest runtime stays. Not a domain event
   * topic: nothing relays it to people.
   */
  public static final String AGENT_RUNTIMES = "agentteams.agent.runtimes";

  /**
   * Revoked tokens, published by team-service for every gateway replica, which reads it from its
   * start when it starts: its retention must outlast the longest token lifetime. Not a domain event
   * topic: nothing relays it to people.
   */
  public static final String TOKEN_REVOCATIONS = "agentteams.token.revocations";

  /** Every topic that carries domain events, in a fixed order. */
  public static final List<String> EVENT_TOPICS =
      List.of(TEAM_EVENTS, MAILBOX_EVENTS, TASK_EVENTS, SCHEDULER_EVENTS);

  /** The dead-letter topic for events a consumer of {@code topic} could not process. */
  public static String deadLetter(String topic) {
    return topic + ".DLT";
  }

  private Topics() {}
}
