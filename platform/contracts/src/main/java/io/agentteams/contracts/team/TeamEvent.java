package io.agentteams.contracts.team;

import io.agentteams.contracts.EventPayload;

/**
 * An event about one team. Every team event carries the team revision it produced: revisions grow
 * by one per event of that team, so a consumer that holds revision r ignores anything at or below
 * it. The envelope's sequence carries the same number.
 */
public interface TeamEvent extends EventPayload {

  /** The team the event concerns. */
  String teamId();

  /** The team's revision after this change. */
  long teamRevision();
}
