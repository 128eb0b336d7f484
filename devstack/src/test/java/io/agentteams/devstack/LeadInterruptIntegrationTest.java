package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.support.Sdk;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.jobs.Job;
import io.agentteams.sdk.jobs.NewRequest;
import io.agentteams.sdk.messages.InboxPage;
import io.agentteams.sdk.problem.ForbiddenException;
import io.agentteams.sdk.teams.NewTeam;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.tools.MemberTools;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobContext;
import io.agentteams.sdk.worker.JobHandler;
import io.agentteams.sdk.worker.JobResult;
import io.agentteams.sdk.worker.WorkerListener;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Lead controls through the gateway and the SDK: the team's lead interrupts a member's running pull
 * job, the member's SDK handler observes it and stops, the job ends {@code interrupted} with the
 * member's inbox kept, and the member's next request runs; a member that does not lead is refused.
 */
@RealInfrastructure
class LeadInterruptIntegrationTest {

  /** Holds a "hold" job until it is interrupted; answers anything else at once. */
  private static final class Interruptible implements JobHandler {
    final Set<UUID> started = ConcurrentHashMap.newKeySet();
    final Set<UUID> sawInterrupt = ConcurrentHashMap.newKeySet();
    final Set<UUID> callbackRan = ConcurrentHashMap.newKeySet();

    @Override
    public JobResult handle(JobContext job) throws Exception {
      UUID id = job.offer().jobId();
      if (!job.offer().input().startsWith("hold")) {
        return JobResult.completed("done: " + job.offer().input());
      }
      CountDownLatch stop = new CountDownLatch(1);
      job.onInterrupt(
          () -> {
            callbackRan.add(id);
            stop.countDown();
          });
      started.add(id);
      if (stop.await(Sdk.PATIENCE.toSeconds(), TimeUnit.SECONDS) && job.interrupted()) {
        sawInterrupt.add(id);
      }
      return JobResult.completed("finished anyway");
    }
  }

  @Test
  void theLeadInterruptsAMembersPullJobItsHandlerStopsAndTheMembersNextRequestRuns() {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("lena"));
    Sdk.agents(owner, List.of("chief", "scribe", "critic"));
    Team team =
        Sdk.readyTeam(
            owner,
            new NewTeam(
                "Interrupted",
                "Stop a turn that went astray",
                List.of(
                    NewTeam.NewMember.lead("lead", "chief"),
                    NewTeam.NewMember.of("writer", "scribe"),
                    NewTeam.NewMember.of("reviewer", "critic"))));
    AgentTeamsClient lead = as(owner, team, "lead");
    AgentTeamsClient reviewer = as(owner, team, "reviewer");
    Interruptible handler = new Interruptible();
    Set<UUID> heard = ConcurrentHashMap.newKeySet();
    Map<UUID, List<String>> reports = new ConcurrentHashMap<>();
    AgentWorker worker =
        Sdk.worker(owner, "scribe", handler)
            .listener(
                new WorkerListener() {
                  @Override
                  public void interrupted(UUID jobId) {
                    heard.add(jobId);
                  }

                  @Override
                  public void reported(UUID jobId, String type) {
                    reports.computeIfAbsent(jobId, id -> new CopyOnWriteArrayList<>()).add(type);
                  }
                })
            .start();
    try {
      lead.mailbox().send(team.id(), "writer", "the sources are in the shared drive", null);
      UUID job = request(owner, team, "hold: write the long report");
      await().atMost(Sdk.PATIENCE).until(() -> handler.started.contains(job));
      await().atMost(Sdk.PATIENCE).until(() -> "running".equals(owner.jobs().get(job).state()));

      assertThatThrownBy(() -> reviewer.jobs().interrupt(team.id(), job))
          .isInstanceOfSatisfying(
              ForbiddenException.class, refused -> assertThat(refused.is("not-lead")).isTrue());
      assertThat(owner.jobs().get(job).state()).isEqualTo("running");
      assertThat(handler.callbackRan).isEmpty();

      Job interrupted = lead.jobs().interrupt(team.id(), job);
      assertThat(interrupted.state()).isEqualTo("interrupted");
      await().atMost(Sdk.PATIENCE).until(() -> handler.sawInterrupt.contains(job));
      assertThat(handler.callbackRan).contains(job);
      assertThat(heard).contains(job);
      Job ended = owner.jobs().get(job);
      assertThat(ended.state()).isEqualTo("interrupted");
      assertThat(ended.result().error()).isEqualTo("interrupted by the lead lead");
      assertThat(reports.get(job))
          .as("nothing reported after the interrupt: what the handler returned is dropped")
          .doesNotContain("completed");

      // The member's inbox is kept, and its conversation runs the next request.
      MemberTools writer = owner.memberTools(team.id(), memberToken(owner, team, "writer"));
      await()
          .atMost(Sdk.PATIENCE)
          .until(
              () ->
                  writer.readMessages(null, null).messages().stream()
                      .map(InboxPage.Message::text)
                      .anyMatch("the sources are in the shared drive"::equals));
      UUID next = request(owner, team, "write the short one");
      Job done = await().atMost(Sdk.PATIENCE).until(() -> owner.jobs().get(next), Job::finished);
      assertThat(done.state()).isEqualTo("completed");
      assertThat(done.result().answer()).isEqualTo("done: write the short one");
    } finally {
      worker.close();
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  private static UUID request(AgentTeamsClient owner, Team team, String text) {
    return owner.jobs().request(team.id(), NewRequest.to("writer", text, null)).job().id();
  }

  private static TokenSupplier memberToken(AgentTeamsClient owner, Team team, String member) {
    return TokenSupplier.of(owner.tokens().member(team.id(), member).accessToken());
  }

  /** A client acting as one member of the team, with a member token its owner minted. */
  private static AgentTeamsClient as(AgentTeamsClient owner, Team team, String member) {
    return owner.withToken(memberToken(owner, team, member));
  }
}
