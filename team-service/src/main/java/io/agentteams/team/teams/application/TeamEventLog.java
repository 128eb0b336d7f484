package io.agentteams.team.teams.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.platform.outbox.Outbox;
import java.util.List;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Appends a team's recorded events to the outbox, in order, keyed by team id with its revision. */
@Component
public class TeamEventLog {

  private final Outbox outbox;

  public TeamEventLog(Outbox outbox) {
    this.outbox = outbox;
  }

  /** Appends the events inside the current transaction (the outbox refuses otherwise). */
  public Mono<Void> append(String ownerId, List<? extends TeamEvent> events) {
    return Flux.fromIterable(events)
        .concatMap(
            event ->
                outbox.append(
                    Topics.TEAM_EVENTS, event.teamId(), ownerId, event.teamRevision(), event))
        .then();
  }
}
