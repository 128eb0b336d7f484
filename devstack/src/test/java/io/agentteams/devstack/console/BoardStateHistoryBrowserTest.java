package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * The team page's board, public state and history: tasks with dependencies, owners, claim ages,
 * heartbeats, write-scope overlaps and blocked reasons; a plan approved from the page; state
 * entries with revisions, authors, latest editors and sources, archived ones apart; and the history
 * searched by member, job and text, page by page.
 */
@RealInfrastructure
class BoardStateHistoryBrowserTest {

  private static final String OWNER = "bea";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;
  private static String lead;
  private static String analyst;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    fixture.agent(token, "lead", "Lead", "Plans the work");
    fixture.agent(token, "analyst", "Analyst", "Analyses the data");
    fixture.agent(token, "editor", "Editor", "Edits the report");
    teamId = fixture.team(token, "Data review", "Review the data", "lead", "analyst", "editor");
    lead = fixture.memberToken(token, teamId, "lead");
    analyst = fixture.memberToken(token, teamId, "analyst");
    browser.signIn(fixture.gateway, OWNER);
  }

  @Test
  void
      theBoardShowsDependenciesOwnersClaimsHeartbeatsOverlapsAndBlockedReasonsAndAPlanIsApproved() {
    JsonNode collect =
        fixture.task(
            lead, teamId, Map.of("title", "Collect data", "write_scopes", List.of("/data")));
    fixture.task(
        lead,
        teamId,
        Map.of(
            "title",
            "Summarise",
            "dependencies",
            List.of(collect.path("id").asLong()),
            "write_scopes",
            List.of("/data/summary")));
    JsonNode doomed = fixture.task(lead, teamId, Map.of("title", "Fetch the archive"));
    fixture.task(
        lead,
        teamId,
        Map.of("title", "Read the archive", "dependencies", List.of(doomed.path("id").asLong())));
    String tasks = "/api/v1/teams/" + teamId + "/tasks/";
    JsonNode claimed =
        fixture
            .api
            .post(
                tasks + collect.path("id").asLong() + "/claim",
                analyst,
                Map.of("expected_revision", collect.path("revision").asLong()))
            .ok()
            .path("task");
    fixture
        .api
        .post(
            tasks + collect.path("id").asLong() + "/heartbeat",
            analyst,
            Map.of(
                "expected_revision",
                claimed.path("revision").asLong(),
                "phase",
                "downloading",
                "percent",
                40))
        .ok();
    JsonNode doomedClaim =
        fixture
            .api
            .post(
                tasks + doomed.path("id").asLong() + "/claim",
                lead,
                Map.of("expected_revision", doomed.path("revision").asLong()))
            .ok()
            .path("task");
    fixture
        .api
        .post(
            tasks + doomed.path("id").asLong() + "/fail",
            lead,
            Map.of(
                "expected_revision",
                doomedClaim.path("revision").asLong(),
                "error",
                "archive offline"))
        .ok();
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/plans",
            lead,
            Map.of(
                "require_approval",
                true,
                "tasks",
                List.of(
                    Map.of("id", "outline", "title", "Outline the report"),
                    Map.of(
                        "id",
                        "write",
                        "title",
                        "Write the report",
                        "depends_on",
                        List.of("outline")))))
        .ok();

    browser.get(fixture.gateway + "/console/teams/" + teamId);
    WebElement inProgress = browser.waitForText(By.id("col-in_progress"), "Collect data");
    String collectCard = "#task-" + collect.path("id").asLong();
    String facts =
        inProgress.findElement(By.cssSelector(collectCard)).getDomProperty("textContent");
    assertThat(facts)
        .contains("analyst")
        .contains("40%")
        .contains("Claimed")
        .contains("Last heartbeat")
        .contains("/data");
    assertThat(facts).contains("overlaps #");
    browser.waitForText(By.id("col-pending"), "Summarise");
    String summary =
        browser.driver().findElement(By.id("col-pending")).getDomProperty("textContent");
    assertThat(summary).contains("#" + collect.path("id").asLong()).contains("scope overlap");
    String blocked =
        browser.waitForText(By.id("col-blocked"), "Read the archive").getDomProperty("textContent");
    assertThat(blocked)
        .containsIgnoringCase("dependency")
        .contains("#" + doomed.path("id").asLong());
    assertThat(browser.driver().findElement(By.id("col-failed")).getDomProperty("textContent"))
        .contains("archive offline");

    browser.waitForText(By.id("col-awaiting_approval"), "Outline the report");
    browser.click(By.cssSelector("#plans button"));
    browser.waitForText(By.id("col-ready"), "Outline the report");
    browser.waitForText(By.id("col-pending"), "Write the report");
    browser.waitUntil(d -> d.findElements(By.cssSelector("#plans .plan")).isEmpty());
    assertThat(
            browser
                .driver()
                .findElement(By.id("col-awaiting_approval"))
                .findElements(By.tagName("li")))
        .isEmpty();
  }

  @Test
  void stateEntriesShowRevisionsAuthorsEditorsAndSourcesAndArchivedOnesApart() {
    String state = "/api/v1/teams/" + teamId + "/state";
    JsonNode first =
        fixture
            .api
            .post(
                state,
                lead,
                Map.of(
                    "request_id",
                    "s1",
                    "kind",
                    "objective",
                    "title",
                    "Ship by May",
                    "content",
                    "The report ships by May"))
            .ok()
            .path("entry");
    fixture
        .api
        .call(
            HttpMethod.PUT,
            state + "/" + first.path("id").asLong(),
            analyst,
            Map.of("expected_revision", 1, "content", "The report ships by mid-May"))
        .ok();
    JsonNode old =
        fixture
            .api
            .post(
                state,
                lead,
                Map.of(
                    "request_id",
                    "s2",
                    "kind",
                    "question",
                    "title",
                    "Which format?",
                    "content",
                    "PDF or web"))
            .ok()
            .path("entry");
    fixture
        .api
        .call(
            HttpMethod.PUT,
            state + "/" + old.path("id").asLong(),
            lead,
            Map.of("expected_revision", 1, "status", "archived"))
        .ok();

    browser.get(fixture.gateway + "/console/teams/" + teamId);
    WebElement entry = browser.waitForText(By.id("state-" + first.path("id").asLong()), "mid-May");
    String text = entry.getDomProperty("textContent");
    assertThat(text).contains("objective").contains("revision 2").contains("Ship by May");
    assertThat(text).containsPattern("Author\\s*lead").containsPattern("Latest editor\\s*analyst");
    assertThat(text).contains("conversation");
    assertThat(browser.driver().findElement(By.id("state-archived")).getDomProperty("textContent"))
        .contains("Which format?");
    assertThat(browser.driver().findElement(By.id("state-active")).getDomProperty("textContent"))
        .doesNotContain("Which format?");
  }

  @Test
  void theHistoryIsSearchedByMemberJobAndTextPageByPage() {
    String messages = "/api/v1/teams/" + teamId + "/messages";
    for (int i = 1; i <= 22; i++) {
      fixture.api.post(messages, lead, Map.of("to", "analyst", "text", "Status note " + i)).ok();
    }
    fixture.api.post(messages, analyst, Map.of("to", "editor", "text", "A special finding")).ok();
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitForText(By.id("history-list"), "A special finding");
    assertThat(browser.driver().findElements(By.cssSelector("#history-list > li"))).hasSize(20);
    browser.click(By.cssSelector("#history-more button"));
    browser.waitUntil(d -> d.findElements(By.cssSelector("#history-list > li")).size() >= 23);
    assertThat(browser.driver().findElement(By.id("history-list")).getDomProperty("textContent"))
        .containsPattern("Status note 1(?!\\d)")
        .containsPattern("Status note 2(?!\\d)");

    new Select(browser.driver().findElement(By.id("history-member"))).selectByValue("editor");
    browser.click(By.cssSelector("#history-search button[type=submit]"));
    browser.waitUntil(d -> d.findElements(By.cssSelector("#history-list > li")).size() == 1);
    assertThat(browser.driver().findElement(By.id("history-list")).getText())
        .contains("A special finding");

    new Select(browser.driver().findElement(By.id("history-member"))).selectByValue("");
    browser.driver().findElement(By.id("history-q")).sendKeys("note 2");
    browser.click(By.cssSelector("#history-search button[type=submit]"));
    browser.waitUntil(d -> d.findElements(By.cssSelector("#history-list > li")).size() == 4);
    assertThat(
            browser.driver().findElements(By.cssSelector("#history-list > li")).stream()
                .map(WebElement::getText))
        .allMatch(text -> text.contains("Status note 2"));
    browser.driver().findElement(By.id("history-q")).clear();
    browser
        .driver()
        .findElement(By.id("history-job"))
        .sendKeys("00000000-0000-0000-0000-000000000000");
    browser.click(By.cssSelector("#history-search button[type=submit]"));
    browser.waitForText(By.id("history-results"), "No messages match");
  }
}
