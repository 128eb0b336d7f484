package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * The team page's counters in a real browser stay exact under live inserts: the board's task count
 * and its columns' counts, the board's columns (only those with tasks show), and the empty notices
 * of the board and the history, which go as soon as something arrives live.
 */
@RealInfrastructure
class BoardCountersBrowserTest {

  private static final String OWNER = "bram";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    fixture.agent(token, "editor", "editor", "Edits the issue");
    fixture.agent(token, "reporter", "reporter", "Reports the news");
    teamId = fixture.team(token, "Newsroom", "Publish the issue", "editor", "reporter");
    browser.signIn(fixture.gateway, OWNER);
  }

  @Test
  void countersColumnsAndEmptyNoticesFollowLiveInserts() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    assertThat(text("board-title")).isEqualTo("Task board (0 tasks)");
    assertThat(displayed("board-empty")).isTrue();
    assertThat(visibleColumns()).isEmpty();
    assertThat(displayed("history-empty")).isTrue();

    String editor = fixture.memberToken(token, teamId, "editor");
    fixture.task(editor, teamId, Map.of("title", "Front page"));
    browser.waitForText(By.id("col-ready"), "Front page");
    browser.waitUntil(d -> text("board-title").equals("Task board (1 task)"));
    assertThat(visibleColumns()).containsExactly("ready");
    assertThat(count("ready")).isEqualTo("1");
    assertThat(displayed("board-empty")).isFalse();

    var second = fixture.task(editor, teamId, Map.of("title", "Weather"));
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/tasks/" + second.path("id").asLong() + "/claim",
            editor,
            Map.of("expected_revision", second.path("revision").asLong()))
        .ok();
    browser.waitForText(By.id("col-in_progress"), "Weather");
    browser.waitUntil(d -> text("board-title").equals("Task board (2 tasks)"));
    assertThat(visibleColumns()).containsExactly("ready", "in_progress");
    assertThat(count("ready")).isEqualTo("1");
    assertThat(count("in_progress")).isEqualTo("1");

    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/messages",
            editor,
            Map.of("to", "reporter", "text", "Copy due at six"))
        .ok();
    browser.waitForText(By.id("history-list"), "Copy due at six");
    browser.waitUntil(d -> !displayed("history-empty"));
  }

  @Test
  void theOwnerCreatesATaskFromThePageAndItShowsLive() {
    String letters = fixture.team(token, "Letters", "Answer the letters", "editor", "reporter");
    browser.get(fixture.gateway + "/console/teams/" + letters);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    browser.click(By.cssSelector("#task-new summary"));
    browser.waitFor(By.id("task-title")).sendKeys("Letters page");
    browser.click(By.id("task-create"));
    browser.waitForText(By.id("task-status"), "created.");
    browser.waitForText(By.id("col-ready"), "Letters page");
    browser.waitUntil(d -> text("board-title").equals("Task board (1 task)"));
    List<String> creators = new ArrayList<>();
    for (JsonNode task :
        fixture.api.get("/api/v1/teams/" + letters + "/tasks", token).ok().path("items")) {
      creators.add(task.path("title").asString() + " by " + task.path("created_by").asString());
    }
    assertThat(creators).containsExactly("Letters page by owner");
  }

  private static String text(String id) {
    return browser.driver().findElement(By.id(id)).getText();
  }

  private static boolean displayed(String id) {
    List<WebElement> found = browser.driver().findElements(By.id(id));
    return !found.isEmpty() && found.get(0).isDisplayed();
  }

  private static String count(String status) {
    return browser
        .driver()
        .findElement(By.cssSelector("#col-" + status + "-title .count"))
        .getText();
  }

  private static List<String> visibleColumns() {
    return browser.driver().findElements(By.cssSelector("#board .column")).stream()
        .filter(WebElement::isDisplayed)
        .map(column -> column.getAttribute("data-column-of").substring("#col-".length()))
        .toList();
  }
}
