package io.agentteams.taskboard.task.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.RosterAccess;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Lets a caller's write in only once team access admits it to the board, before its body is read:
 * an outsider (another owner's caller, a member token of another team) learns only "not found",
 * never what was wrong with a body it sent to a team it may not touch.
 */
@Component
public class BoardAdmission {

  private final RosterAccess access;

  public BoardAdmission(RosterAccess access) {
    this.access = access;
  }

  /** Completes when the caller may use the team's board; the refusal otherwise. */
  public Mono<Void> admit(Caller caller, UUID teamId) {
    return BoardCaller.resolve(access, caller, teamId).then();
  }
}
