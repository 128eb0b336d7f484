package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.RecordingListener;
import io.agentteams.devstack.support.Sdk;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.jobs.Job;
import io.agentteams.sdk.jobs.NewRequest;
import io.agentteams.sdk.teams.NewTeam;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobHandler;
import io.agentteams.sdk.worker.JobOffer;
import io.agentteams.sdk.worker.JobResult;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * The SDK's agent worker against the whole stack: it rides out a gateway outage long enough for its
 * lease to lapse (stream dropped, gateway back, the job reconciled, nothing lost or run twice),
 * drains on close (finishing, or giving back for reconciliation what does not finish in time),
 * holds no more jobs than it asked for, and keeps a job longer than its lease by heartbeats.
 */
@RealInfrastructure
class AgentWorkerIntegrationTest {

  private static final Duration PATIENCE = Sdk.PATIENCE;

  /** Counts runs per job; a job whose text is "hold" waits for the latch. */
  private static final class Holding implements JobHandler {
    final Map<UUID, AtomicInteger> runs = new ConcurrentHashMap<>();
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger mostAtOnce = new AtomicInteger();

    @Override
    public JobResult handle(io.agentteams.sdk.worker.JobContext job) throws Exception {
      runs.computeIfAbsent(job.offer().jobId(), id -> new AtomicInteger()).incrementAndGet();
      int now = inFlight.incrementAndGet();
      mostAtOnce.accumulateAndGet(now, Math::max);
      try {
        if (job.offer().input().startsWith("hold")) {
          release.await();
        }
        return JobResult.completed("done: " + job.offer().input());
      } finally {
        inFlight.decrementAndGet();
      }
    }

    int runsOf(UUID job) {
      AtomicInteger count = runs.get(job);
      return count == null ? 0 : count.get();
    }
  }

  @Test
  void aGatewayOutageLongerThanTheLeaseLosesNoJobAndRunsNoneTwice() {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("gus"));
    Team team = team(owner, "restarter", 2);
    Holding handler = new Holding();
    RecordingListener heard = new RecordingListener();
    AgentWorker worker =
        Sdk.worker(owner, "restarter", handler).leaseSeconds(2).listener(heard).start();
    ServiceStack stack = SharedStack.get();
    try {
      UUID held = request(owner, team, "m1", "hold through the outage");
      await().atMost(PATIENCE).until(() -> heard.reportsOf(held, "started") == 1);

      stack.stop(Service.GATEWAY);
      // With no heartbeat getting through, the lease lapses: the job's outcome is unknown.
      await().atMost(PATIENCE).until(() -> "unknown".equals(stateInScheduler(held)));
      stack.startAgain(Service.GATEWAY);

      await().atMost(PATIENCE).until(() -> heard.connects() >= 2);
      UUID after = request(owner, team, "m2", "after the restart");
      await().atMost(PATIENCE).until(() -> owner.jobs().get(after).finished());
      handler.release.countDown();
      Job settled = await().atMost(PATIENCE).until(() -> owner.jobs().get(held), Job::finished);

      assertThat(settled.state()).isEqualTo("completed");
      assertThat(settled.result().answer()).isEqualTo("done: hold through the outage");
      assertThat(owner.jobs().get(after).result().answer()).isEqualTo("done: after the restart");
      assertThat(handler.runsOf(held)).as("the held job ran once").isEqualTo(1);
      assertThat(handler.runsOf(after)).isEqualTo(1);
      // The lapsed job was reconciled one of two ways, whichever came first once the gateway was
      // back: a heartbeat under the lease the worker still held (valid until a newer offer), or a
      // reconciliation offer naming this worker's own lapsed lease, which the worker took over
      // instead of starting the job again. Either way it ran once.
      assertThat(stateInScheduler(held)).isEqualTo("completed");
      List<JobOffer> offers = heard.offers(held);
      assertThat(offers.get(0).reconcile()).isFalse();
      assertThat(offers.subList(1, offers.size()))
          .allSatisfy(
              offer -> {
                assertThat(offer.reconcile()).isTrue();
                assertThat(offer.previousWorkerId()).isEqualTo(worker.workerId());
              });
    } finally {
      handler.release.countDown();
      worker.close();
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  @Test
  void closingDrainsTheRunningJobTakesNoNewOneAndGivesBackWhatDoesNotFinishInTime()
      throws Exception {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("dot"));
    Team team = team(owner, "drainer", 3);
    Holding handler = new Holding();
    RecordingListener heard = new RecordingListener();
    AgentWorker worker = Sdk.worker(owner, "drainer", handler).listener(heard).start();
    try {
      UUID running = request(owner, team, "m1", "hold while closing");
      await().atMost(PATIENCE).until(() -> heard.reportsOf(running, "started") == 1);

      double open = openStreams();
      CompletableFuture<Void> closing = CompletableFuture.runAsync(worker::close);
      // Once the scheduler has seen the stream go, nothing more can be offered to this worker.
      await().atMost(PATIENCE).until(() -> openStreams() < open);
      UUID later = request(owner, team, "m2", "sent while the worker drains");
      handler.release.countDown();
      closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

      assertThat(owner.jobs().get(running).result().answer()).isEqualTo("done: hold while closing");
      assertThat(heard.offers(later)).as("a draining worker takes no new job").isEmpty();
      assertThat(owner.jobs().get(later).finished()).isFalse();

      // A worker whose job does not finish within the drain time gives it back for
      // reconciliation; the next worker has no record of it and, by default, does not re-run it.
      Holding stuck = new Holding();
      AgentWorker impatient =
          Sdk.worker(owner, "drainer", stuck).drainTimeout(Duration.ofMillis(500)).start();
      await().atMost(PATIENCE).until(() -> owner.jobs().get(later).finished());
      assertThat(owner.jobs().get(later).state()).isEqualTo("completed");
      UUID unfinished = request(owner, team, "m3", "hold past the drain time");
      await().atMost(PATIENCE).until(() -> stuck.runsOf(unfinished) == 1);
      impatient.close();
      assertThat(owner.jobs().get(unfinished).state()).isEqualTo("unknown");

      Holding next = new Holding();
      AgentWorker reconciler = Sdk.worker(owner, "drainer", next).start();
      Job settled =
          await().atMost(PATIENCE).until(() -> owner.jobs().get(unfinished), Job::finished);
      reconciler.close();
      assertThat(settled.state()).isEqualTo("failed");
      assertThat(settled.result().error())
          .contains("outcome unknown")
          .contains(impatient.workerId())
          .contains("not run again");
      assertThat(next.runsOf(unfinished)).isZero();
      stuck.release.countDown();
    } finally {
      handler.release.countDown();
      worker.close();
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  @Test
  void aWorkerHoldsNoMoreJobsThanItAskedFor() {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("nia"));
    Team team = team(owner, "pair", 5);
    Holding handler = new Holding();
    AgentWorker worker = Sdk.worker(owner, "pair", handler).maxJobs(2).start();
    try {
      List<UUID> jobs = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        jobs.add(request(owner, team, "m" + i, "hold job " + i));
      }
      await().atMost(PATIENCE).until(() -> handler.inFlight.get() == 2);
      // Five admitted jobs, two running: the other three wait for room, untaken.
      await()
          .during(Duration.ofSeconds(2))
          .atMost(PATIENCE)
          .until(() -> handler.inFlight.get() == 2 && handler.runs.size() == 2);

      handler.release.countDown();
      for (UUID job : jobs) {
        await().atMost(PATIENCE).until(() -> owner.jobs().get(job).finished());
        assertThat(owner.jobs().get(job).state()).isEqualTo("completed");
        assertThat(handler.runsOf(job)).isEqualTo(1);
      }
      assertThat(handler.mostAtOnce.get()).isEqualTo(2);
    } finally {
      handler.release.countDown();
      worker.close();
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  @Test
  void heartbeatsKeepAJobThatRunsLongerThanItsLease() {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("lea"));
    Team team = team(owner, "slow", 2);
    Holding handler = new Holding();
    RecordingListener heard = new RecordingListener();
    AgentWorker worker = Sdk.worker(owner, "slow", handler).leaseSeconds(1).listener(heard).start();
    try {
      UUID job = request(owner, team, "m1", "hold for several leases");
      // Eight heartbeats, a third of a lease apart: the job has run well past two leases.
      await().atMost(PATIENCE).until(() -> heard.reportsOf(job, "heartbeat") >= 8);
      assertThat(owner.jobs().get(job).state()).isEqualTo("running");
      handler.release.countDown();

      Job done = await().atMost(PATIENCE).until(() -> owner.jobs().get(job), Job::finished);
      assertThat(done.state()).isEqualTo("completed");
      assertThat(heard.offers(job)).as("never lapsed, so never offered again").hasSize(1);
      assertThat(handler.runsOf(job)).isEqualTo(1);
    } finally {
      handler.release.countDown();
      worker.close();
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  /** A team whose members m1..mN all run on one agent (each has its own conversation). */
  private static Team team(AgentTeamsClient owner, String agent, int members) {
    Sdk.agents(owner, List.of(agent, "bystander"));
    List<NewTeam.NewMember> roster = new ArrayList<>();
    for (int i = 1; i <= members; i++) {
      roster.add(NewTeam.NewMember.of("m" + i, agent));
    }
    if (members < 2) {
      roster.add(NewTeam.NewMember.of("bystander", "bystander"));
    }
    return Sdk.readyTeam(owner, new NewTeam("Workers", "Exercise a worker", roster));
  }

  private static UUID request(AgentTeamsClient owner, Team team, String member, String text) {
    return owner.jobs().request(team.id(), NewRequest.to(member, text, null)).job().id();
  }

  /** Worker streams the scheduler holds open. */
  private static double openStreams() {
    return SharedStack.get()
        .context(Service.SCHEDULER)
        .getBean(MeterRegistry.class)
        .get("agentteams.scheduler.streams.open")
        .gauge()
        .value();
  }

  /** The job's state in the scheduler's own table, for while the gateway is down. */
  private static String stateInScheduler(UUID job) {
    return SharedStack.get()
        .context(Service.SCHEDULER)
        .getBean(DatabaseClient.class)
        .sql("SELECT state FROM job WHERE id = :id")
        .bind("id", job)
        .map(row -> row.get("state", String.class))
        .one()
        .block(Duration.ofSeconds(10));
  }
}
