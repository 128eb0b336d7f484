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
import org.openqa.selenium.support.ui.Select;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * The team page's counters in a real browser stay exact under live inserts: the board's task count
 * and its columns' counts, the board's columns (only those with tasks show), the public state's
 * entry count and revision, and the empty notices of the board and the history, which go as soon as
 * something arrives live. The owner creates a task and publishes a state entry from the page.
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

  @Test
  void theOwnerPublishesAStateEntryFromThePageAndItShowsLiveWithTheCountRight() {
    String desk = fixture.team(token, "Desk", "Plan the desk", "editor", "reporter");
    String editor = fixture.memberToken(token, desk, "editor");
    String state = "/api/v1/teams/" + desk + "/state";
    fixture
        .api
        .post(
            state,
            editor,
            Map.of("request_id", "e1", "kind", "plan", "title", "Morning plan", "content", "Lead"))
        .ok();
    browser.get(fixture.gateway + "/console/teams/" + desk);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    assertThat(text("state-total")).isEqualTo("1 entry");
    assertThat(text("state-revision")).isEqualTo("revision 1");
    browser.script("window.notReloaded = true;");

    // A kind the team-service does not know is refused beside the kind, the draft kept.
    browser.click(By.cssSelector("#entry-new summary"));
    browser.script(
        "document.querySelector('#entry-kind option[value=\"objective\"]').value = 'opinion';");
    browser.waitFor(By.id("entry-title")).sendKeys("Readers first");
    browser.driver().findElement(By.id("entry-content")).sendKeys("Answer every letter");
    browser.click(By.id("entry-create"));
    browser.waitForText(By.id("entry-kind-error"), "kind 'opinion' must be one of");
    assertThat(browser.attribute(By.id("entry-kind"), "aria-invalid")).isEqualTo("true");
    assertThat(browser.driver().findElement(By.id("entry-title")).getDomProperty("value"))
        .isEqualTo("Readers first");
    assertThat(browser.driver().findElement(By.id("entry-content")).getDomProperty("value"))
        .isEqualTo("Answer every letter");
    assertThat(browser.accessibilityViolations()).isEmpty();
    assertThat(fixture.api.get(state, token).ok().path("entries")).hasSize(1);

    new Select(browser.driver().findElement(By.id("entry-kind"))).selectByValue("requirement");
    browser.click(By.id("entry-create"));
    browser.waitForText(By.id("entry-status"), "Entry #2 published.");
    WebElement entry = browser.waitForText(By.id("state-2"), "Readers first");
    assertThat(entry.getDomProperty("textContent"))
        .contains("requirement")
        .contains("Answer every letter")
        .containsPattern("Author\\s*owner")
        .containsPattern("Latest editor\\s*owner");
    browser.waitUntil(d -> text("state-total").equals("2 entries"));
    browser.waitUntil(d -> text("state-revision").equals("revision 2"));
    assertThat(browser.driver().findElements(By.cssSelector("#state-active > li"))).hasSize(2);
    assertThat(browser.driver().findElement(By.id("entry-title")).getDomProperty("value"))
        .isEmpty();
    assertThat(browser.script("return window.notReloaded === true;")).isEqualTo(true);

    List<String> authors = new ArrayList<>();
    for (JsonNode item : fixture.api.get(state, token).ok().path("entries")) {
      authors.add(item.path("title").asString() + " by " + item.path("created_by").asString());
    }
    assertThat(authors).containsExactly("Morning plan by editor", "Readers first by owner");
  }

  @Test
  void theOwnerEditsAnEntryOverItsRevisionAndAConflictKeepsTheDraft() {
    String desk = fixture.team(token, "Copy desk", "Edit the copy", "editor", "reporter");
    String editor = fixture.memberToken(token, desk, "editor");
    String state = "/api/v1/teams/" + desk + "/state";
    fixture
        .api
        .post(
            state,
            editor,
            Map.of("request_id", "c1", "kind", "finding", "title", "Typos", "content", "Three"))
        .ok();
    browser.get(fixture.gateway + "/console/teams/" + desk);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));

    browser.click(By.cssSelector("#state-1 .entry-edit summary"));
    WebElement content = browser.waitFor(By.id("entry-1-content"));
    content.clear();
    content.sendKeys("Four typos");
    browser.click(By.id("entry-1-save"));
    browser.waitForText(By.id("entry-1-status"), "Saved as revision 2.");
    WebElement body = browser.waitForText(By.cssSelector("#state-1 .entry-body"), "Four typos");
    assertThat(body.getDomProperty("textContent"))
        .contains("revision 2")
        .containsPattern("Author\\s*editor")
        .containsPattern("Latest editor\\s*owner");

    // The owner types while a member changes the entry: the draft stays, and saving it over the
    // revision it was based on is a conflict that shows what the entry says now.
    content = browser.driver().findElement(By.id("entry-1-content"));
    content.clear();
    content.sendKeys("Six typos");
    fixture
        .api
        .call(
            HttpMethod.PUT,
            state + "/1",
            editor,
            Map.of("expected_revision", 2, "content", "Five typos"))
        .ok();
    browser.waitForText(By.cssSelector("#state-1 .entry-body"), "revision 3");
    assertThat(browser.driver().findElement(By.id("entry-1-content")).getDomProperty("value"))
        .isEqualTo("Six typos");
    browser.click(By.id("entry-1-save"));
    browser.waitForText(
        By.id("entry-1-status"),
        "Changed meanwhile: revision 3 by editor reads \"Typos: Five typos\"");
    assertThat(browser.driver().findElement(By.id("entry-1-content")).getDomProperty("value"))
        .isEqualTo("Six typos");
    assertThat(fixture.api.get(state + "/1", token).ok().path("entry").path("content").asString())
        .isEqualTo("Five typos");
    assertThat(browser.accessibilityViolations()).isEmpty();

    browser.click(By.id("entry-1-save"));
    browser.waitForText(By.id("entry-1-status"), "Saved as revision 4.");
    browser.waitForText(By.cssSelector("#state-1 .entry-body"), "Six typos");
    JsonNode saved = fixture.api.get(state + "/1", token).ok().path("entry");
    assertThat(saved.path("revision").asLong()).isEqualTo(4);
    assertThat(saved.path("updated_by").asString()).isEqualTo("owner");
    assertThat(text("state-total")).isEqualTo("1 entry");
  }

  private static String text(String id) {
    return browser.text(By.id(id));
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
