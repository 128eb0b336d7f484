package io.agentteams.gateway.console.attention;

import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.ActivityItem;
import io.agentteams.gateway.console.view.Attention;
import io.agentteams.gateway.console.view.Team;
import io.agentteams.platform.identity.Caller;
import java.util.List;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads what of a team needs its owner, from the team's activity and board. */
@Component
public class AttentionReads {

  /** Teams read at once when every team of an owner is read. */
  private static final int CONCURRENCY = 4;

  private final Reads reads;

  public AttentionReads(Reads reads) {
    this.reads = reads;
  }

  /** What of the team needs its owner now. */
  public Mono<Attention> of(Caller.Owner owner, Team team) {
    return Mono.zip(
            Reads.orEmptyWhileUnknown(reads.activity(owner, team.id()), List.of()),
            Reads.orEmptyWhileUnknown(reads.tasks(owner, team.id()), List.of()))
        .map(found -> Attention.of(team, ActivityItem.jobsOf(found.getT1()), found.getT2()));
  }

  /** What of each of the teams needs its owner, in the teams' order. */
  public Mono<List<Attention>> of(Caller.Owner owner, List<Team> teams) {
    return Flux.fromIterable(teams)
        .flatMapSequential(team -> of(owner, team), CONCURRENCY)
        .collectList();
  }
}
