package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.support.Sdk;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.worker.AgentWorker;
import io.agentteams.sdk.worker.JobContext;
import io.agentteams.sdk.worker.JobResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * A team run from the console: started with plan approval, the plan shown and approved on the run's
 * page, the timeline by phase (plan, rounds, synthesis) as the run goes on, the result; and a plan
 * rejected with a reason; a budgeted run's spend per member, run, team and model (a model named by
 * hostile markup, shown as text) and its export; a cancel that asks first, naming the run; a run's
 * page reread on the team's event stream only, never by polling. The objective is hostile markup,
 * shown as text.
 */
@RealInfrastructure
class RunsBrowserTest {

  private static final String OWNER = "rhea";
  private static final String HOSTILE = "<img src=x onerror=alert(1)> brief the board";
  private static final String HOSTILE_MODEL = "<img src=x onerror=alert(1)>";
  private static final Pattern TASK = Pattern.compile("Your task \\[([a-z0-9-]+)]");
  private static final String PLAN =
      """
      [{"id": "gather", "assignee": "analyst", "instruction": "Gather the figures"},
       {"id": "check", "assignee": "analyst", "instruction": "Check them", "dependencies": ["gather"]}]
      """;

  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String teamId;
  private static String ownerToken;
  private static final List<AgentWorker> workers = new ArrayList<>();

  /** Holds the analyst's jobs of a run whose objective says "(held)" until its test ends. */
  private static final CountDownLatch held = new CountDownLatch(1);

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    String token = fixture.ownerToken(OWNER);
    ownerToken = token;
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
    held.countDown();
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

  /**
   * Each job of a budgeted run reports 300 tokens and admission reserves 1000 (the devstack's
   * estimate): with a budget of 1500 the plan and the first task run, the second task's job does
   * not fit, and the run stops there. Its page shows the spend beside the budget; the team's runs
   * page shows the spend per member and per run.
   */
  @Test
  void aRunsBudgetStopsItAndTheSpendPerMemberRunAndTeamShowsInTheConsole() {
    browser.get(fixture.gateway + "/console/teams/" + teamId + "/runs");
    browser.type(browser.waitFor(By.id("run-objective")), "Audit the ledger (budgeted)");
    browser.type(browser.driver().findElement(By.id("run-budget")), "1500");
    browser.click(By.cssSelector("#run-form button[type='submit']"));
    browser.waitFor(By.id("run-body"));
    String url = browser.driver().getCurrentUrl();
    String runId = url.substring(url.lastIndexOf('/') + 1);

    browser.waitForText(By.id("run-state"), "failed");
    assertThat(browser.driver().findElement(By.id("run-reason")).getText())
        .startsWith("stopped at the budget: budget-exceeded: run.tokens");
    assertThat(browser.driver().findElement(By.id("run-spent-tokens")).getText()).isEqualTo("600");
    assertThat(browser.driver().findElement(By.id("run-budget-tokens")).getText())
        .as("thousands separated")
        .isEqualTo("1,500");
    assertThat(browser.driver().findElement(By.id("run-task-check")).getText()).contains("blocked");

    browser.get(fixture.gateway + "/console/teams/" + teamId + "/runs");
    browser.waitFor(By.id("spend"));
    assertThat(browser.driver().findElement(By.id("spend-team")).getText()).contains("600");
    assertThat(browser.driver().findElement(By.id("spend-member-lead")).getText())
        .contains("lead", "300");
    assertThat(browser.driver().findElement(By.id("spend-member-analyst")).getText())
        .contains("analyst", "300");
    assertThat(browser.driver().findElement(By.id("spend-run-" + runId)).getText())
        .contains("Audit the ledger (budgeted)", "600", "1,500", "900");
    // Per model: the planner's model (a hostile name, shown as text) and the analyst's.
    List<WebElement> models =
        browser.driver().findElements(By.cssSelector("#spend-models tbody tr"));
    assertThat(models)
        .anySatisfy(row -> assertModelRow(row, HOSTILE_MODEL, "225", "75", "300", "1"))
        .anySatisfy(row -> assertModelRow(row, "analyst-small-1", "240", "60", "300", "1"));
    assertThat(browser.driver().findElements(By.cssSelector("#spend-models img"))).isEmpty();
    browser.assertNoDialog();
    browser.checkAndCapture("runs-spend", "light", Browser.DESKTOP);

    // The run's export carries the split: the run's spend per model, each job's usage.
    JsonNode export =
        fixture.api.get("/api/v1/teams/" + teamId + "/runs/" + runId + "/export", ownerToken).ok();
    JsonNode spend = export.get("spend");
    assertThat(spend.get("spent").get("input_tokens").asLong()).isEqualTo(225 + 240);
    assertThat(spend.get("spent").get("output_tokens").asLong()).isEqualTo(75 + 60);
    assertThat(spend.get("by_model"))
        .extracting(m -> m.get("model").asString() + "=" + m.get("tokens").asLong())
        .containsExactlyInAnyOrder(HOSTILE_MODEL + "=300", "analyst-small-1=300");
    assertThat(export.get("jobs"))
        .filteredOn(j -> j.get("job").get("usage").get("tokens").asLong() > 0)
        .extracting(
            j ->
                j.get("job").get("usage").get("model").asString()
                    + ":"
                    + j.get("job").get("usage").get("input_tokens").asLong()
                    + "/"
                    + j.get("job").get("usage").get("output_tokens").asLong())
        .containsExactlyInAnyOrder(HOSTILE_MODEL + ":225/75", "analyst-small-1:240/60");
  }

  @Test
  void aRunIsCancelledOnlyThroughAConfirmationThatNamesIt() {
    String objective = "Close the quarter's books (held)";
    try {
      cancelWithConfirmation(objective);
    } finally {
      held.countDown();
    }
  }

  private static void cancelWithConfirmation(String objective) {
    startRun(objective, false);
    String runId = shownRunId();
    browser.waitForText(By.id("run-state"), "running");

    browser.click(By.cssSelector("#run-cancel-confirm summary"));
    assertThat(browser.waitFor(By.cssSelector("#run-cancel-confirm p")).getText())
        .isEqualTo("Cancel the run " + objective + "? Its unfinished jobs are cancelled.");
    // A live change while the question is open rereads the run and leaves the question open.
    long rereads = rereads(runId);
    boardChange("while the cancel is asked");
    browser.waitUntil(d -> rereads(runId) > rereads);
    assertThat(browser.waitFor(By.id("run-cancel")).isDisplayed()).isTrue();

    browser.click(By.id("run-cancel-keep"));
    browser.waitUntil(
        d -> d.findElements(By.id("run-cancel")).stream().noneMatch(e -> e.isDisplayed()));
    assertThat(browser.script("return document.activeElement.textContent;"))
        .isEqualTo("Cancel the run");
    assertThat(runState(runId)).isEqualTo("running");
    assertThat(browser.driver().findElement(By.id("run-state")).getText()).isEqualTo("running");

    browser.click(By.cssSelector("#run-cancel-confirm summary"));
    browser.click(By.id("run-cancel"));
    browser.waitForText(By.id("run-state"), "cancelled");
    assertThat(runState(runId)).isEqualTo("cancelled");
    assertThat(browser.driver().findElements(By.id("run-cancel-confirm"))).isEmpty();
  }

  /**
   * The page counts the stream's changes (the "team-changed" the page's stream client tells) and
   * the browser records every request: each reread of the run follows a change told since the one
   * before, from the page's opening to the run's end. Changes come from the test (tasks on the
   * team's board) and from the run itself, approved through the API, not the page. The page's clock
   * runs its long timers a hundred times faster, so a poll every 2 s would reread every 20 ms and
   * be seen between two changes with no wait of the test's own.
   */
  @Test
  void aRunsPageIsRereadOnTheTeamsEventStreamAndNeverByPolling() {
    Map<String, Object> recorder =
        browser.devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            Map.of(
                "source",
                "(() => { window.__changes = [];"
                    + " addEventListener('team-changed',"
                    + " () => window.__changes.push(performance.now()), true);"
                    + " const fast = (schedule) => (fn, ms, ...args) =>"
                    + "   schedule(fn, ms >= 1000 ? ms / 100 : ms, ...args);"
                    + " window.setTimeout = fast(window.setTimeout.bind(window));"
                    + " window.setInterval = fast(window.setInterval.bind(window)); })();"));
    try {
      startRun("Count the stock", true);
      String runId = shownRunId();
      browser.waitForText(By.id("run-state"), "awaiting approval");
      assertThat(browser.count("[hx-trigger*='every']")).as("a polling trigger").isZero();
      // The stream's opening tells a change: the page rereads once for what it may have missed.
      browser.waitUntil(d -> rereads(runId) >= 1);
      for (int change = 1; change <= 2; change++) {
        long before = rereads(runId);
        long told = changesTold();
        boardChange("stock check " + change);
        browser.waitUntil(d -> changesTold() > told && rereads(runId) > before);
      }

      fixture
          .api
          .post("/api/v1/teams/" + teamId + "/runs/" + runId + "/approve", ownerToken, Map.of())
          .ok();
      browser.waitForText(By.id("run-state"), "completed");

      List<Double> changes = times("return window.__changes;");
      List<Double> reads =
          times(
              "return performance.getEntriesByType('resource')"
                  + ".filter(e => e.name.includes(arguments[0]))"
                  + ".map(e => e.startTime).sort((a, b) => a - b);",
              "/runs/" + runId + "/live");
      double previous = Double.NEGATIVE_INFINITY;
      for (double read : reads) {
        double since = previous;
        assertThat(changes)
            .as("a change told between the rereads at %.0f ms and %.0f ms", since, read)
            .anyMatch(told -> told > since && told <= read);
        previous = read;
      }
      assertThat(reads).as("rereads of the run").hasSizeGreaterThanOrEqualTo(3);
    } finally {
      browser.devtools(
          "Page.removeScriptToEvaluateOnNewDocument",
          Map.of("identifier", recorder.get("identifier")));
    }
  }

  /** A change on the team's event stream that touches no run: a task on the team's board. */
  private static void boardChange(String title) {
    String lead = fixture.memberToken(ownerToken, teamId, "lead");
    fixture.task(
        lead,
        teamId,
        Map.of("title", title, "write_scopes", List.of("/" + title.replace(' ', '-'))));
  }

  /** How many times the page read the run's body again. */
  private static long rereads(String runId) {
    Object count =
        browser.script(
            "return performance.getEntriesByType('resource')"
                + ".filter(e => e.name.includes(arguments[0])).length;",
            "/runs/" + runId + "/live");
    return ((Number) count).longValue();
  }

  private static long changesTold() {
    Object count = browser.script("return (window.__changes || []).length;");
    return ((Number) count).longValue();
  }

  @SuppressWarnings("unchecked")
  private static List<Double> times(String script, Object... args) {
    return ((List<Object>) browser.script(script, args))
        .stream().map(t -> ((Number) t).doubleValue()).toList();
  }

  private static String runState(String runId) {
    return fixture
        .api
        .get("/api/v1/teams/" + teamId + "/runs/" + runId, ownerToken)
        .ok()
        .path("state")
        .asString();
  }

  private static String shownRunId() {
    String url = browser.driver().getCurrentUrl();
    return url.substring(url.lastIndexOf('/') + 1);
  }

  private static void assertModelRow(WebElement row, String model, String... figures) {
    List<WebElement> cells = row.findElements(By.cssSelector("th, td"));
    assertThat(cells.get(0).getText()).isEqualTo(model);
    assertThat(cells.subList(1, 4))
        .extracting(WebElement::getText)
        .containsExactly(figures[0], figures[1], figures[2]);
    assertThat(cells.get(5).getText()).isEqualTo(figures[3]);
  }

  private static void startRun(String objective) {
    startRun(objective, true);
  }

  private static void startRun(String objective, boolean approval) {
    browser.get(fixture.gateway + "/console/teams/" + teamId + "/runs");
    browser.type(browser.waitFor(By.id("run-objective")), objective);
    if (approval) {
      browser.click(By.id("run-approval"));
    }
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
      return JobResult.completed(PLAN, usage(input));
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
    if (job.offer().input().contains("(held)")) {
      try {
        // Until the test lets go: the run stays running (its cancel makes the result unrecorded).
        held.await(5, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Matcher task = TASK.matcher(job.offer().input());
    String key = task.find() ? task.group(1) : "?";
    return JobResult.completed(
        key.equals("gather") ? "figures: 42" : "checked", usage(job.offer().input()));
  }

  /**
   * A budgeted run's jobs report 300 tokens each, with their split and model (the planner's a
   * hostile name); the others report none.
   */
  private static Usage usage(String input) {
    if (!input.contains("(budgeted)")) {
      return Usage.NONE;
    }
    return input.startsWith("You plan a team run")
        ? Usage.of(225, 75, 1_500, HOSTILE_MODEL)
        : Usage.of(240, 60, 900, "analyst-small-1");
  }
}
