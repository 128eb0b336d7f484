package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * Every console page (the runs page, a run's page, an agent's edit form and the page of an unknown
 * address too), in the light and the dark theme, at 390 px and 1280 px: axe-core finds no violation
 * of any impact, minor ones included, and a screenshot of each is written under {@code
 * target/console-screenshots/}.
 */
@RealInfrastructure
class AccessibilityBrowserTest {

  /** An operator (see SharedStack), so the operator page is in reach. */
  private static final String OWNER = "olga-operator";

  private static final List<String> THEMES = List.of("light", "dark");
  private static final List<Integer> WIDTHS = List.of(Browser.PHONE, Browser.DESKTOP);

  private static ConsoleFixture fixture;
  private static Browser browser;
  private static final String PLAN =
      """
      [{"id": "changes", "assignee": "researcher", "instruction": "List the changes"},
       {"id": "draft", "assignee": "writer", "instruction": "Draft the notes",
        "dependencies": ["changes"]}]
      """;

  private static String teamId;
  private static String runId;
  private static ScriptedWorker worker;
  private static ScriptedWorker planning;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    String token = fixture.ownerToken(OWNER);
    fixture.agent(token, "planner", "Planner", "Breaks the goal into tasks and reviews results");
    fixture.agent(token, "researcher", "Researcher", "Finds and summarises sources");
    fixture.agent(token, "writer", "Writer", "Writes the launch notes");
    teamId =
        fixture.team(
            token,
            "Launch notes",
            "Write the launch notes for the 2.0 release",
            "planner",
            "researcher",
            "writer");
    worker = new ScriptedWorker(fixture.api, token, "researcher");
    String done =
        fixture
            .request(token, teamId, "Collect what changed since 1.9", "researcher")
            .get(0)
            .path("id")
            .asString();
    String asked =
        fixture
            .request(token, teamId, "Which audience comes first?", "researcher")
            .get(0)
            .path("id")
            .asString();
    fixture.request(token, teamId, "Draft the introduction", "writer");
    JsonNodeSteps.complete(worker, done, "Twelve changes, three of them breaking.");
    JsonNodeSteps.ask(worker, asked, "Developers or operators?");
    String planner = fixture.memberToken(token, teamId, "planner");
    long first =
        fixture
            .task(
                planner,
                teamId,
                Map.of("title", "List the changes", "write_scopes", List.of("/notes")))
            .path("id")
            .asLong();
    fixture.task(
        planner,
        teamId,
        Map.of(
            "title",
            "Write the summary",
            "dependencies",
            List.of(first),
            "write_scopes",
            List.of("/notes/summary")));
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/state",
            planner,
            Map.of(
                "request_id",
                "a1",
                "kind",
                "objective",
                "title",
                "Notes by Friday",
                "content",
                "Publish the notes with the release on Friday"))
        .ok();
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/messages",
            planner,
            Map.of("to", "writer", "text", "Keep it under a page, please."))
        .ok();
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/messages",
            planner,
            Map.of("broadcast", true, "text", "Kick-off: notes due Friday."))
        .ok();
    // A run whose plan waits for approval: its page shows the plan, the approval and the cancel.
    planning = new ScriptedWorker(fixture.api, token, "planner");
    runId =
        fixture
            .api
            .post(
                "/api/v1/teams/" + teamId + "/runs",
                token,
                Map.of("objective", "Publish the 2.0 launch notes", "require_plan_approval", true))
            .ok()
            .path("id")
            .asString();
    var plan = planning.offer(o -> o.path("input").asString().startsWith("You plan a team run"));
    planning.started(plan);
    planning.complete(plan, PLAN);
  }

  @AfterAll
  static void stop() {
    worker.close();
    planning.close();
  }

  @Test
  void everyPageHasNoAxeViolationOfAnyImpactInBothThemesAtBothWidths() {
    browser.get(fixture.gateway + "/console/signin");
    browser.driver().manage().deleteAllCookies();
    browser.get(fixture.gateway + "/console/signin");
    browser.waitFor(By.id("owner_id"));
    // The check can fail: an image without a text alternative is a critical violation.
    browser.script(
        "const img = document.createElement('img'); img.id = 'axe-probe';"
            + " img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='; document.body.append(img);");
    assertThat(browser.accessibilityViolations()).anyMatch(v -> v.startsWith("image-alt"));
    browser.script("document.getElementById('axe-probe').remove();");
    // A moderate one counts too: text outside every landmark.
    browser.script(
        "const p = document.createElement('p'); p.id = 'axe-probe';"
            + " p.textContent = 'Outside every landmark'; document.body.append(p);");
    assertThat(browser.accessibilityViolations())
        .anyMatch(v -> v.startsWith("region") && v.contains("(moderate)"));
    browser.script("document.getElementById('axe-probe').remove();");
    assertThat(browser.accessibilityViolations()).isEmpty();
    check("signin");

    browser.signIn(fixture.gateway, OWNER);
    browser.waitFor(By.id("team-list"));
    check("teams");

    browser.get(fixture.gateway + "/console/teams/new");
    browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=planner]")).click();
    browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=writer]")).click();
    browser.type(browser.driver().findElement(By.id("team-name")), "Release review");
    check("team-new");

    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    browser.waitFor(By.cssSelector(".answer-form textarea"));
    browser.waitForText(By.id("feed"), "Twelve changes");
    check("team");

    browser.get(fixture.gateway + "/console/teams/" + teamId + "/runs");
    browser.waitFor(By.id("run-form"));
    check("runs");

    browser.get(fixture.gateway + "/console/teams/" + teamId + "/runs/" + runId);
    browser.waitForText(By.id("run-state"), "awaiting approval");
    browser.waitFor(By.id("run-tasks"));
    check("run");

    browser.get(fixture.gateway + "/console/attention");
    browser.waitForText(By.id("attention-items"), "Developers or operators?");
    browser.waitUntil(d -> !d.findElement(By.id("needs-you-count")).getText().isEmpty());
    check("attention");

    browser.get(fixture.gateway + "/console/agents");
    browser.waitFor(By.id("agent-list"));
    check("agents");

    browser.get(fixture.gateway + "/console/agents/planner/edit");
    browser.waitFor(By.id("agent-form"));
    check("agent-edit");

    browser.get(fixture.gateway + "/console/operator");
    browser.waitFor(By.id("figure-slots"));
    check("operator");

    browser.get(fixture.gateway + "/console/no-such-page");
    browser.waitForText(By.tagName("h1"), "Not found");
    check("not-found");
  }

  private static void check(String page) {
    for (String theme : THEMES) {
      for (int width : WIDTHS) {
        browser.checkAndCapture(page, theme, width);
      }
    }
    browser.width(Browser.DESKTOP);
  }

  /** Worker steps that wait for the job's offer first. */
  private static final class JsonNodeSteps {

    static void complete(ScriptedWorker worker, String jobId, String answer) {
      var offer = worker.offerOf(jobId);
      worker.started(offer);
      worker.complete(offer, answer);
    }

    static void ask(ScriptedWorker worker, String jobId, String question) {
      var offer = worker.offerOf(jobId);
      worker.started(offer);
      worker.ask(offer, question);
    }
  }
}
