package io.agentteams.devstack.demo;

import io.agentteams.agents.scripted.ScriptedTeam;
import io.agentteams.devstack.AllAtOnce;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.agents.AgentDraft;
import io.agentteams.sdk.jobs.NewRequest;
import io.agentteams.sdk.teams.Team;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobResult;
import io.agentteams.sdk.worker.WorkerListener;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo the run command starts: the owner {@code demo} with four scripted agents running as SDK
 * workers in this process, and a team of them writing a launch brief ({@link ScriptedTeam}). Within
 * a minute of the stack being up the team has planned, claimed and completed tasks in dependency
 * order, published state, messaged, handed work on, and left one job — the writer's — waiting for
 * the owner's answer. Starting again (a restart of the stack) finds the team and its request where
 * they are: no second team, no second request.
 */
public final class LiveDemo implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LiveDemo.class);

  /** The owner id of the demo team. */
  public static final String OWNER = "demo";

  /** How long a stop lets a demo job finish: a little more than one step of the script. */
  static final Duration DRAIN = Duration.ofSeconds(2);

  /** The idempotency key of the owner's request that starts the work. */
  public static final String KICKOFF_KEY = "demo-kickoff";

  /**
   * How the demo runs.
   *
   * @param gateway the gateway's address
   * @param seed what the scripted texts are picked with (the README's expected output uses 7)
   * @param pace a pause between visible steps, so people can follow them
   * @param ownerId whose team it is
   * @param say where the demo tells people what happens (a question for the owner)
   */
  public record Settings(
      URI gateway, long seed, Duration pace, String ownerId, Consumer<String> say) {

    /** The run command's demo: seed 7, a second and a half between steps, owner {@code demo}. */
    public static Settings forRunCommand(URI gateway, PrintStream out) {
      return new Settings(gateway, 7, Duration.ofMillis(1500), OWNER, out::println);
    }
  }

  private final Settings settings;
  private final ScriptedTeam script;
  private final Team team;
  private final List<AgentWorker> workers;

  private LiveDemo(Settings settings, ScriptedTeam script, Team team, List<AgentWorker> workers) {
    this.settings = settings;
    this.script = script;
    this.team = team;
    this.workers = workers;
  }

  /**
   * Registers the agents (or finds them), forms the team unless it exists, starts a worker per
   * agent and sends the owner's request (a replay when it was sent before).
   */
  public static LiveDemo start(Settings settings) {
    AgentTeamsClient anonymous = AgentTeamsClient.builder(settings.gateway()).build();
    AgentTeamsClient owner =
        anonymous.withToken(
            TokenSupplier.refreshing(
                () -> anonymous.tokens().development(settings.ownerId()).accessToken()));
    ScriptedTeam script = ScriptedTeam.launchBrief(settings.seed(), settings.pace());
    for (String member : ScriptedTeam.MEMBERS) {
      owner
          .agents()
          .ensure(
              AgentDraft.pull(
                  agentId(member),
                  "Demo " + member,
                  "Scripted " + member + " of the demo team (agents module, seeded script)"));
    }
    Team team =
        owner
            .teams()
            .findByName(script.name())
            .orElseGet(
                () -> owner.teams().create(script.newTeam(script.name(), LiveDemo::agentId)));
    team = awaitReady(owner, team.id());
    List<AgentWorker> workers = new ArrayList<>();
    WorkerListener listener = new Announcer(settings.say(), settings.gateway());
    for (String member : ScriptedTeam.MEMBERS) {
      String agentId = agentId(member);
      workers.add(
          owner
              .worker(
                  agentId,
                  TokenSupplier.refreshing(() -> owner.tokens().worker(agentId).accessToken()),
                  script.agent(member))
              .maxJobs(2)
              // A step of the script, not the whole of it: a stop of the stack gives a job still
              // running then back, and the next start offers it again.
              .drainTimeout(DRAIN)
              .listener(listener)
              .start());
    }
    owner.jobs().request(team.id(), NewRequest.to("lead", script.kickoff(), KICKOFF_KEY));
    return new LiveDemo(settings, script, team, workers);
  }

  /** The agent that plays a member of the demo team. */
  public static String agentId(String member) {
    return "demo-" + member;
  }

  private static Team awaitReady(AgentTeamsClient owner, UUID teamId) {
    Instant deadline = Instant.now().plusSeconds(60);
    Team team = owner.teams().get(teamId);
    while (!team.ready()) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the demo team is " + team.status() + " after 60 s");
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the demo team was provisioned", e);
      }
      team = owner.teams().get(teamId);
    }
    return team;
  }

  /** The demo team. */
  public Team team() {
    return team;
  }

  /** The scripted team it plays. */
  public ScriptedTeam script() {
    return script;
  }

  /** The workers running the demo's agents. */
  public List<AgentWorker> workers() {
    return List.copyOf(workers);
  }

  /** What the start-up banner says about the demo: how to watch it and how to answer. */
  public String banner() {
    String gateway = settings.gateway().toString();
    return String.format(
        """
          Demo:     team "%s" (owner '%s': lead, researcher, reviewer, writer), id %s
                    watch it in the console: %s/console/teams/%s (sign in as '%s'), or:
                    TOKEN=$(curl -s -X POST %s/dev/tokens -H 'Content-Type: application/json' \\
                      -d '{"owner_id":"%s"}' | jq -r .access_token)
                    curl -N %s/api/v1/teams/%s/events -H "Authorization: Bearer $TOKEN"
                    the writer will ask you a question: answer it on the team page, or as the
                    README's quick start shows
                    (-Dagentteams.devstack.demo=false starts the stack without the demo)
        """,
        team.name(),
        settings.ownerId(),
        team.id(),
        gateway,
        team.id(),
        settings.ownerId(),
        gateway,
        settings.ownerId(),
        gateway,
        team.id());
  }

  /** Drains the workers: their running jobs finish or go back for reconciliation. */
  @Override
  public void close() {
    // All at once: a stop of the stack waits for the slowest worker's drain, not for their sum.
    AllAtOnce.run(
        "demo-worker-close", workers.stream().map(worker -> (Runnable) worker::close).toList());
  }

  /** Tells people when a demo agent stops with a question for the owner. */
  private static final class Announcer implements WorkerListener {
    private final Consumer<String> say;
    private final URI gateway;

    Announcer(Consumer<String> say, URI gateway) {
      this.say = Objects.requireNonNull(say);
      this.gateway = gateway;
    }

    @Override
    public void handled(UUID jobId, JobResult result) {
      if (result instanceof JobResult.InputRequired question && question.clarification() != null) {
        say.accept(
            String.format(
                """

                Demo: a member asks the owner: "%s"
                      answer:  curl -s -X POST %s/api/v1/jobs/%s/answer -H "Authorization: Bearer $TOKEN" \\
                                 -H 'Content-Type: application/json' -d '{"text":"casual"}'
                """,
                question.clarification(), gateway, jobId));
      }
    }

    @Override
    public void reportFailed(UUID jobId, String type, Throwable cause, boolean retrying) {
      log.debug(
          "demo report {} for job {} failed (retrying: {}): {}", type, jobId, retrying, cause);
    }
  }
}
