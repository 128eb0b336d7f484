package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.support.Sdk;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobContext;
import io.agentteams.sdk.worker.JobResult;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A team run from the console: started with plan approval, the plan shown and approved on the run's
 * page, the timeline by phase (plan, rounds, synthesis) as the run goes on, the result; and a plan
 * rejected with a reason. The objective is hostile markup, shown as text.
 */
@RealInfrastructure
class RunsBrowserTest {

  private static final String OWNER = "rhea";
  private static final String HOSTILE = "<img src=x onerror=alert(1)> brief the board";
  private static final Pattern TASK = Pattern.compile("Your task \\[([a-z0-9-]+)]");
  private static final String PLAN =
      """
      [{"id": "gather", "assignee": "analyst", "instruction": "Gather the figures"},
       {"id": "check", "assignee": "analyst", "instruction": "Check them", "dependencies": ["gather"]}]
      """;

  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String teamId;
  private static final List<AgentWorker> workers = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    String token = fixture.ownerToken(OWNER);
    fixture.agent(token, "lead", "Lead", "Plans and sums up");
    fixture.agent(token, "analyst", "Analyst", "Works the figures");
    teamId = fixture.team(token, "Board brief", "Brief the board", "lead", "analyst");
    AgentTeamsClient owner = Sdk.owner(OWNER);
    workers.add(Sdk.worker(owner, "lead", RunsBrowserTest::lead).start());
    workers.add(Sdk.worker(owner, "analyst", RunsBrowserTest::analyst).start());
    browser.signIn(fixture.gateway, OWNER);
  }

  @AfterAll
  static void stopWorkers() {
    workers.forEach(AgentWorker::close);
  }

  @Test
  void aRunStartedFromTheConsoleWaitsForApprovalShowsItsTimelineByPhaseAndItsResult() {
    startRun(HOSTILE);

    browser.waitForText(By.id("run-state"), "awaiting approval");
    assertThat(browser.driver().findElement(By.id("run-objective")).getText()).isEqualTo(HOSTILE);
    browser.assertNoDialog();
    assertThat(browser.driver().findElements(By.cssSelector("#run-tasks tbody tr")))
        .extracting(WebElement::getText)
        .satisfiesExactly(
            gather -> assertThat(gather).contains("gather", "analyst", "pending"),
            check -> assertThat(check).contains("check", "analyst", "gather", "pending"));

    browser.click(By.id("run-approve"));

    browser.waitForText(By.id("run-state"), "completed");
    assertThat(browser.driver().findElement(By.id("run-result")).getText())
        .contains("[gather]", "figures: 42", "[check]", "checked");
    assertThat(phases()).containsExactly("Plan", "Round 1", "Round 2", "Synthesis");
    assertThat(
            browser
                .driver()
                .findElement(By.cssSelector("#run-timeline [data-phase='Round 2']"))
                .getText())
        .contains("task.assigned", "check", "task.result", "checked");
    assertThat(browser.driver().findElement(By.id("run-task-check")).getText())
        .contains("completed", "round 2");
    browser.checkAndCapture("run", "light", Browser.DESKTOP);
  }

  @Test
  void aPlanRejectedFromTheConsoleEndsTheRunWithTheReason() {
    startRun("Reorganise the archive");
    browser.waitForText(By.id("run-state"), "awaiting approval");

    browser.click(By.id("run-reject"));
    browser.waitForText(By.id("run-action-error"), "Say why the plan is rejected.");
    browser.type(browser.driver().findElement(By.id("run-reject-reason")), "not this quarter");
    browser.click(By.id("run-reject"));

    browser.waitForText(By.id("run-state"), "failed");
    assertThat(browser.driver().findElement(By.id("run-reason")).getText())
        .isEqualTo("plan rejected: not this quarter");
    assertThat(browser.driver().findElements(By.id("run-approve"))).isEmpty();
  }

  private static void startRun(String objective) {
    browser.get(fixture.gateway + "/console/teams/" + teamId + "/runs");
    browser.type(browser.waitFor(By.id("run-objective")), objective);
    browser.click(By.id("run-approval"));
    browser.click(By.cssSelector("#run-form button[type='submit']"));
    browser.waitFor(By.id("run-body"));
  }

  private static List<String> phases() {
    return browser.driver().findElements(By.cssSelector("#run-timeline > li")).stream()
        .map(e -> e.getAttribute("data-phase"))
        .toList();
  }

  private static JobResult lead(JobContext job) {
    String input = job.offer().input();
    if (input.startsWith("You plan a team run")) {
      return JobResult.completed(PLAN);
    }
    StringBuilder result = new StringBuilder("Summary:");
    for (String line : input.split("\n")) {
      if (line.startsWith("- [")) {
        result.append('\n').append(line);
      }
    }
    return JobResult.completed(result.toString());
  }

  private static JobResult analyst(JobContext job) {
    Matcher task = TASK.matcher(job.offer().input());
    String key = task.find() ? task.group(1) : "?";
    return JobResult.completed(key.equals("gather") ? "figures: 42" : "checked");
  }
}
