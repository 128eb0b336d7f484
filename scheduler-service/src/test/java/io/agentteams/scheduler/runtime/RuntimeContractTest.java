package io.agentteams.scheduler.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.scheduler.support.SchedulerIntegrationTest;
import io.agentteams.scheduler.support.Teams;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract every agent runtime keeps, whatever its wire: a job offered to the agent completes
 * with its usage, a failure the agent reports fails the job with its reason, a job whose outcome
 * was lost is reconciled from the agent's own record instead of being run again, and a job the
 * owner cancels is known to be over at the agent. Each runtime (pull, webhook, A2A) runs these same
 * scenarios against its own test agent; a fourth runtime adds a subclass and its agent.
 *
 * <p>The agent acts on a job as the job's input says: {@code complete}, {@code fail}, {@code lose}
 * (it runs the job but its answer is lost) or {@code hold} (it keeps the job running).
 */
public abstract class RuntimeContractTest extends SchedulerIntegrationTest {

  /** An agent of the runtime under test. */
  protected interface ContractAgent {

    /** Registers the owner's agent as this runtime's, and connects it where the runtime needs. */
    void register(String ownerId, String agentId);

    /** Lets the agent act on the job once it is offered (a pull worker takes its offer). */
    void actOn(UUID jobId);

    /** Whether the agent was asked about the job again after its answer was lost. */
    boolean askedAgain(UUID jobId);

    /** Whether the agent has been told that the job is over (cancelled). */
    boolean toldOver(UUID jobId);
  }

  /** The agent of the runtime under test. */
  protected abstract ContractAgent agent();

  private Teams.Team team;
  private UUID job;

  private void offer(String input) {
    String owner = unique("owner");
    String agentId = unique("agent");
    agent().register(owner, agentId);
    team = teams.create(owner, Map.of("member", agentId));
    job = request(team, List.of("member"), input).get(0);
    agent().actOn(job);
  }

  private Map<?, ?> awaitState(String state) {
    await().atMost(Duration.ofSeconds(60)).until(() -> state.equals(state(team, job)));
    return job(team, job);
  }

  @Test
  void aJobOfferedCompletesWithItsUsage() {
    offer("complete");

    Map<?, ?> completed = awaitState("completed");
    assertThat(((Map<?, ?>) completed.get("result")).get("answer")).isEqualTo("done: complete");
    assertThat(((Map<?, ?>) completed.get("usage")).get("tokens")).isEqualTo(42);
    assertThat(((Map<?, ?>) completed.get("usage")).get("model")).isEqualTo("peer-model");
  }

  @Test
  void aFailureTheAgentReportsFailsTheJobWithItsReason() {
    offer("fail");

    Map<?, ?> failed = awaitState("failed");
    assertThat((String) ((Map<?, ?>) failed.get("result")).get("error"))
        .contains("the agent broke");
  }

  @Test
  void aJobWhoseOutcomeWasLostIsReconciledFromTheAgentsRecord() {
    offer("lose");

    Map<?, ?> completed = awaitState("completed");
    assertThat(agent().askedAgain(job)).isTrue();
    assertThat(((Map<?, ?>) completed.get("result")).get("answer")).isEqualTo("done: lose");
  }

  @Test
  void aCancelReachesTheAgent() {
    offer("hold");
    awaitState("running");

    web.post()
        .uri("/api/v1/jobs/{id}/cancel", job)
        .header("Authorization", owner(team.ownerId()))
        .exchange()
        .expectStatus()
        .isOk();

    assertThat(state(team, job)).isEqualTo("cancelled");
    await().atMost(Duration.ofSeconds(60)).until(() -> agent().toldOver(job));
  }
}
