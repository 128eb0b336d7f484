package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import tools.jackson.databind.JsonNode;

/**
 * The roster in a real browser: whether a member's worker is connected shows within a second of the
 * scheduler knowing it (pushed on the team's stream, not polled), and each member's current job,
 * since when, and the task it holds with its last heartbeat.
 */
@RealInfrastructure
class RosterBrowserTest {

  private static final String OWNER = "rosa";

  /** From the scheduler knowing of a worker to the open page showing it. */
  private static final Duration WITHIN_A_SECOND = Duration.ofSeconds(1);

  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    fixture.agent(token, "coordinator", "coordinator", "Coordinates the audit");
    fixture.agent(token, "auditor", "auditor", "Audits the accounts");
    teamId = fixture.team(token, "Audit", "Audit the accounts", "coordinator", "auditor");
    browser.signIn(fixture.gateway, OWNER);
  }

  @Test
  void aWorkerComingAndGoingShowsWithinASecondAndTheRowSaysWhatTheMemberIsDoing() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    assertThat(worker("auditor")).isEqualTo("absent");
    assertThat(row("auditor")).contains("No worker connected");
    // The fix is a link away: the agent's card, where its worker token and commands are.
    assertThat(
            browser
                .driver()
                .findElement(By.cssSelector("#member-auditor .worker-presence.absent a"))
                .getAttribute("href"))
        .endsWith("/console/agents#agent-auditor");

    ScriptedWorker auditor = new ScriptedWorker(fixture.api, token, "auditor");
    try {
      awaitScheduler("auditor", true);
      await()
          .atMost(WITHIN_A_SECOND)
          .ignoreException(StaleElementReferenceException.class)
          .until(() -> "connected".equals(worker("auditor")));
      assertThat(row("auditor")).contains("Worker connected since");
      assertThat(worker("coordinator")).as("another agent's worker").isEqualTo("absent");

      // The member's current job and, once it claims a task and beats, the task's heartbeat.
      String jobId =
          fixture
              .request(token, teamId, "Check the invoices", "auditor")
              .get(0)
              .path("id")
              .asString();
      JsonNode offer = auditor.offerOf(jobId);
      auditor.started(offer);
      browser.waitForText(By.cssSelector("#member-auditor .member-job"), "Check the invoices");
      assertThat(row("auditor")).contains("running").contains("since");

      String member = fixture.memberToken(token, teamId, "auditor");
      JsonNode task = fixture.task(member, teamId, Map.of("title", "Invoices of March"));
      long taskId = task.path("id").asLong();
      fixture
          .api
          .post(
              "/api/v1/teams/" + teamId + "/tasks/" + taskId + "/claim",
              member,
              Map.of("expected_revision", task.path("revision").asLong()))
          .ok();
      // The claim is the task's first heartbeat.
      browser.waitForText(By.cssSelector("#member-auditor .member-task"), "#" + taskId);
      assertThat(row("auditor")).contains("Invoices of March").contains("last heartbeat");
      auditor.complete(offer, "All invoices match.");
      browser.waitUntil(
          d -> d.findElements(By.cssSelector("#member-auditor .member-job")).isEmpty());
    } finally {
      auditor.close();
    }
    awaitScheduler("auditor", false);
    await()
        .atMost(WITHIN_A_SECOND)
        .ignoreException(StaleElementReferenceException.class)
        .until(() -> "absent".equals(worker("auditor")));
    assertThat(row("auditor")).contains("No worker connected");
  }

  private static void awaitScheduler(String agent, boolean connected) {
    await()
        .atMost(ConsoleFixture.PATIENCE)
        .until(
            () ->
                fixture
                        .api
                        .get("/api/v1/agents/" + agent + "/worker", token)
                        .ok()
                        .path("connected")
                        .asBoolean()
                    == connected);
  }

  private static String worker(String member) {
    return browser.attribute(By.id("member-" + member), "data-worker");
  }

  private static String row(String member) {
    return browser.text(By.id("member-" + member));
  }
}
