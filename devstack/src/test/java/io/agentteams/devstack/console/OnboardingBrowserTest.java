package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.RealInfrastructure;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import tools.jackson.databind.JsonNode;

/**
 * Onboarding in a real browser: a member with no worker links to where one is started; minting a
 * worker token there shows the commands to run one with the gateway's address and the agent's id
 * filled in; the Python command, copied from the page and run as it is, completes a job.
 */
@RealInfrastructure
class OnboardingBrowserTest {

  private static final String OWNER = "oona";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    fixture.agent(token, "planner", "planner", "Plans");
    fixture.agent(token, "runner", "runner", "Runs the numbers");
    teamId = fixture.team(token, "Numbers", "Run the numbers", "planner", "runner");
    browser.signIn(fixture.gateway, OWNER);
  }

  @Test
  void theCommandShownAfterMintingATokenRunsAWorkerThatCompletesAJob() throws Exception {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.click(By.cssSelector("#member-runner .worker-presence a"));
    browser.waitUntil(d -> d.getCurrentUrl().endsWith("/console/agents#agent-runner"));

    browser.click(By.cssSelector("#agent-runner .agent-actions button"));
    String python = browser.waitFor(By.id("run-python-runner")).getDomProperty("textContent");
    assertThat(python)
        .contains("--gateway " + fixture.gateway)
        .contains("--agent runner")
        .contains("export AGENTTEAMS_WORKER_TOKEN='");
    assertThat(browser.driver().findElement(By.id("run-curl-runner")).getDomProperty("textContent"))
        .contains(fixture.gateway + "/api/v1/agents/runner/jobs/stream");
    assertThat(browser.driver().findElement(By.id("run-java-runner")).getDomProperty("textContent"))
        .contains("URI.create(\"" + fixture.gateway + "\")")
        .contains(".worker(\"runner\"");

    Path log = Files.createTempFile("onboarding-worker", ".log");
    Process worker =
        new ProcessBuilder("bash", "-c", python + " --exit-after 1")
            .directory(repository().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      String jobId =
          fixture.request(token, teamId, "Add the numbers", "runner").get(0).path("id").asString();
      JsonNode done =
          await()
              .atMost(ConsoleFixture.PATIENCE)
              .until(
                  () -> fixture.job(token, jobId),
                  job -> "completed".equals(job.path("state").asString()));
      assertThat(done.path("result").path("answer").asString()).contains("Add the numbers");
      assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("it stops after one job").isTrue();
      assertThat(worker.exitValue()).as(Files.readString(log, StandardCharsets.UTF_8)).isZero();
    } finally {
      worker.destroyForcibly();
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
