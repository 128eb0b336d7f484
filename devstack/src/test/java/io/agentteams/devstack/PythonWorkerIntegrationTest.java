package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.support.Sdk;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.jobs.Job;
import io.agentteams.sdk.jobs.NewRequest;
import io.agentteams.sdk.state.StateEntry;
import io.agentteams.sdk.state.StateQuery;
import io.agentteams.sdk.teams.NewTeam;
import io.agentteams.sdk.teams.Team;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/python-worker/worker.py} — Python's standard library and nothing else — runs a
 * job end to end through the gateway: it holds the job stream, reports, acts as the member with the
 * member token, and completes the job. The protocol is plain HTTP and server-sent events.
 */
@RealInfrastructure
class PythonWorkerIntegrationTest {

  @Test
  void thePythonExampleRunsAJobWithTheStandardLibraryAlone() throws Exception {
    AgentTeamsClient owner = Sdk.owner(Sdk.unique("pia"));
    Sdk.agents(owner, List.of("py-agent", "other"));
    Team team =
        Sdk.readyTeam(
            owner,
            new NewTeam(
                "Polyglot",
                "Show the protocol is plain HTTP",
                List.of(
                    NewTeam.NewMember.of("snake", "py-agent"),
                    NewTeam.NewMember.of("other", "other"))));
    String token = owner.tokens().worker("py-agent").accessToken();
    Path script = repository().resolve("examples/python-worker/worker.py");
    Path log = Files.createTempFile("python-worker", ".log");
    ProcessBuilder launch =
        new ProcessBuilder(
                "python3",
                script.toString(),
                "--gateway",
                Sdk.gateway().toString(),
                "--agent",
                "py-agent",
                "--worker-id",
                "python-test",
                "--exit-after",
                "1")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // The token goes by the environment, as the example's help suggests, not on the command line.
    launch.environment().put("AGENTTEAMS_WORKER_TOKEN", token);
    Process python = launch.start();
    try {
      UUID job =
          owner
              .jobs()
              .request(team.id(), NewRequest.to("snake", "Say hello", "python-1"))
              .job()
              .id();
      Job done = await().atMost(Sdk.PATIENCE).until(() -> owner.jobs().get(job), Job::finished);
      assertThat(python.waitFor(Sdk.PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .as("it stops after one job")
          .isTrue();
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(python.exitValue()).as(output).isZero();
      assertThat(done.state()).isEqualTo("completed");
      assertThat(done.result().answer())
          .isEqualTo("Python worker python-test (snake) read the goal and the request: Say hello");
      assertThat(done.result().runId()).isEqualTo("python-test");
      StateEntry finding =
          owner.state().read(team.id(), StateQuery.ofKind("finding")).entries().get(0);
      assertThat(finding.createdBy()).isEqualTo("snake");
      assertThat(finding.content())
          .isEqualTo("snake read the goal: Show the protocol is plain HTTP");
      assertThat(output).contains("ran 1 job(s)");
    } finally {
      python.destroyForcibly();
      Sdk.cancelUnfinished(owner, team.id());
    }
  }

  /** The repository's root: where {@code examples/} is. */
  private static Path repository() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !new File(dir.toFile(), "examples/python-worker/worker.py").exists()) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("examples/python-worker not found above the working folder");
    }
    return dir;
  }
}
