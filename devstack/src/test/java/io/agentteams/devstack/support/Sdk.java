package io.agentteams.devstack.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.agents.AgentDraft;
import io.agentteams.sdk.jobs.Activity;
import io.agentteams.sdk.jobs.Job;
import io.agentteams.sdk.problem.ConflictException;
import io.agentteams.sdk.teams.NewTeam;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobHandler;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The shared stack as the SDK's users see it: clients, agents, teams and workers. */
public final class Sdk {

  /** How long a test waits for the stack to catch up. */
  public static final Duration PATIENCE = Duration.ofSeconds(60);

  private Sdk() {}

  /** The shared stack's gateway. */
  public static URI gateway() {
    return URI.create(SharedStack.get().url(Service.GATEWAY));
  }

  /** A client of the owner, with a development token. */
  public static AgentTeamsClient owner(String ownerId) {
    AgentTeamsClient anonymous = AgentTeamsClient.builder(gateway()).build();
    return anonymous.withToken(
        TokenSupplier.of(anonymous.tokens().development(ownerId).accessToken()));
  }

  /** An owner id no other test uses. */
  public static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Registers {@code pull} agents of those ids. */
  public static void agents(AgentTeamsClient owner, List<String> ids) {
    for (String id : ids) {
      owner.agents().ensure(AgentDraft.pull(id, id, id + " (test agent)"));
    }
  }

  /** Forms the team and waits until it is ready. */
  public static Team readyTeam(AgentTeamsClient owner, NewTeam team) {
    UUID id = owner.teams().create(team).id();
    return await().atMost(PATIENCE).until(() -> owner.teams().get(id), Team::ready);
  }

  /** A worker builder for the agent, with a renewing worker token the owner mints. */
  public static AgentWorker.Builder worker(
      AgentTeamsClient owner, String agentId, JobHandler handler) {
    return owner
        .worker(agentId, owner.workerTokens(agentId), handler)
        .backoff(Duration.ofMillis(100), Duration.ofSeconds(2));
  }

  /** Every job of the team that has not ended: requests, hand-offs and receipts. */
  public static List<Job> unfinished(AgentTeamsClient owner, UUID teamId) {
    List<Job> open = new ArrayList<>();
    for (Activity.Item item : owner.jobs().activity(teamId, 200, null).items()) {
      if (!item.request().finished()) {
        open.add(item.request());
      }
      if (item.receipt() != null && !item.receipt().finished()) {
        open.add(item.receipt());
      }
    }
    return open;
  }

  /** Cancels what the team left unfinished, so no job holds a slot the next test needs. */
  public static void cancelUnfinished(AgentTeamsClient owner, UUID teamId) {
    for (Job job : unfinished(owner, teamId)) {
      try {
        owner.jobs().cancel(job.id());
      } catch (ConflictException ended) {
        // it ended meanwhile
      }
    }
  }
}
