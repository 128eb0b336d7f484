package io.agentteams.scheduler.job.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.budget.web.BudgetBody;
import io.agentteams.scheduler.job.application.JobRequests;
import io.agentteams.scheduler.job.domain.IfBusy;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /api/v1/teams/{teamId}/requests}: the owner asks selected members (one job each), or
 * a member hands work to another member ({@code send_member}).
 */
@RestController
public class RequestController {

  private final JobRequests requests;
  private final JsonMapper json;

  public RequestController(JobRequests requests, JsonMapper json) {
    this.requests = requests;
    this.json = json;
  }

  @PostMapping("/api/v1/teams/{teamId}/requests")
  public Mono<ResponseEntity<RequestResponse>> submit(
      Caller caller, @PathVariable UUID teamId, @RequestBody Mono<NewRequest> request) {
    // The caller's kind is judged before the body too: a worker's malformed body gets the same 403.
    if (!(caller instanceof Caller.Owner) && !(caller instanceof Caller.Member)) {
      return Mono.error(wrongCallerKind());
    }
    return requests
        .admit(caller, teamId)
        .then(request)
        .flatMap(body -> submit(caller, teamId, body));
  }

  private Mono<ResponseEntity<RequestResponse>> submit(
      Caller caller, UUID teamId, NewRequest body) {
    List<String> recipients = body.recipients() == null ? List.of() : body.recipients();
    Mono<JobRequests.Submitted> submitted;
    if (caller instanceof Caller.Owner owner) {
      submitted =
          requests.submit(
              owner,
              teamId,
              recipients,
              body.text(),
              body.idempotencyKey(),
              body.chainBudget(),
              IfBusy.fromWire(body.ifBusy()));
    } else if (caller instanceof Caller.Member member) {
      submitted =
          requests.handOff(
              member,
              teamId,
              recipients,
              body.text(),
              body.idempotencyKey(),
              body.chainBudget(),
              IfBusy.fromWire(body.ifBusy()));
    } else {
      return Mono.error(wrongCallerKind());
    }
    return submitted.map(
        result ->
            ResponseEntity.status(result.replayed() ? HttpStatus.OK : HttpStatus.CREATED)
                .body(
                    new RequestResponse(
                        result.jobs().stream().map(job -> JobView.of(job, json)).toList(),
                        result.replayed())));
  }

  private static ProblemException wrongCallerKind() {
    return new ProblemException(
        ProblemException.Kind.FORBIDDEN,
        "wrong-caller-kind",
        "only an owner or a member of the team sends requests");
  }

  /**
   * A request.
   *
   * @param recipients the selected members (exactly one for a member's hand-off)
   * @param text what is asked
   * @param idempotencyKey makes retries safe: the same key returns the same jobs
   * @param budget the budget of each chain the request starts: tokens, cost, wall time and hand-off
   *     hops
   * @param ifBusy when a recipient's conversation is busy with an unfinished job: {@code enqueue}
   *     (the default: queue behind it) or {@code reject} (409 {@code conversation-busy} naming it)
   */
  public record NewRequest(
      @Nullable List<String> recipients,
      @Nullable String text,
      @Nullable String idempotencyKey,
      @Nullable BudgetBody budget,
      @Nullable String ifBusy) {

    Budget chainBudget() {
      return budget == null ? Budget.NONE : budget.toBudget();
    }
  }

  /** The jobs a request created (or, replayed, had created). */
  public record RequestResponse(List<JobView> jobs, boolean replayed) {}
}
