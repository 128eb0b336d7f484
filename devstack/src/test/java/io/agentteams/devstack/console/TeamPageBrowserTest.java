package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * The team page in a real browser: the @-mention composer by keyboard alone, live updates that
 * leave a draft, a chip, an expanded card and a half-typed answer alone, a clarification answered
 * from the page resuming its job, cancel, and delete refused while work is unfinished.
 */
@RealInfrastructure
class TeamPageBrowserTest {

  private static final String OWNER = "tara";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;
  private static ScriptedWorker researcher;
  private static ScriptedWorker writer;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    for (String agent : List.of("lead", "researcher", "writer")) {
      fixture.agent(token, agent, agent, "The " + agent + " of the field study");
    }
    teamId = fixture.team(token, "Field study", "Study the field", "lead", "researcher", "writer");
    researcher = new ScriptedWorker(fixture.api, token, "researcher");
    writer = new ScriptedWorker(fixture.api, token, "writer");
    browser.signIn(fixture.gateway, OWNER);
  }

  @AfterAll
  static void stopWorkers() {
    researcher.close();
    writer.close();
  }

  @Test
  void theMentionPickerWorksByKeyboardAloneAndOnlyChipsDecideWhoIsAsked() {
    openTeamPage();
    WebElement text = browser.driver().findElement(By.id("composer-text"));
    WebElement picker = browser.driver().findElement(By.id("mention-picker"));
    browser.click(By.id("composer-text"));

    text.sendKeys("@");
    browser.waitUntil(d -> picker.isDisplayed());
    assertThat(options()).containsExactly("lead", "researcher", "writer");
    assertThat(active()).isEqualTo("lead");
    text.sendKeys(Keys.ARROW_DOWN);
    assertThat(active()).isEqualTo("researcher");
    text.sendKeys(Keys.ARROW_DOWN);
    assertThat(active()).isEqualTo("writer");
    text.sendKeys(Keys.ARROW_UP);
    assertThat(active()).isEqualTo("researcher");
    assertThat(text.getAttribute("aria-activedescendant")).isEqualTo("pick-researcher");
    text.sendKeys(Keys.ESCAPE);
    assertThat(picker.isDisplayed()).isFalse();
    text.sendKeys(Keys.BACK_SPACE);

    // A name typed in the text routes nothing: the picker is closed before it becomes a chip.
    text.sendKeys("Compare notes with @writer");
    text.sendKeys(Keys.ESCAPE);
    text.sendKeys(" and ask @res");
    browser.waitUntil(d -> picker.isDisplayed());
    assertThat(options()).containsExactly("researcher");
    text.sendKeys(Keys.ENTER);
    assertThat(chips()).containsExactly("researcher");
    assertThat(text.getAttribute("value")).isEqualTo("Compare notes with @writer and ask ");
    assertThat(picker.isDisplayed()).isFalse();

    // Enter is a new line when not picking; Ctrl+Enter sends.
    text.sendKeys(Keys.ENTER, "Which sources matter?");
    assertThat(text.getAttribute("value")).contains("\nWhich sources matter?");
    text.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
    browser.waitForText(By.id("composer-status"), "Sent to researcher.");
    browser.waitUntil(d -> text.getAttribute("value").isEmpty() && chips().isEmpty());

    List<JsonNode> asked = jobsWith("Compare notes with @writer");
    assertThat(asked).hasSize(1);
    assertThat(asked.get(0).path("member").asString()).isEqualTo("researcher");
    String jobId = asked.get(0).path("id").asString();
    WebElement card = browser.waitFor(By.id("job-" + jobId));
    assertThat(card.getText()).contains("you").contains("researcher").contains("Compare notes");
    researcher.complete(started(researcher.offerOf(jobId)), "Three sources.");
    browser.waitForText(By.cssSelector("#job-" + jobId + " summary"), "completed");
  }

  @Test
  void
      liveUpdatesKeepTheDraftTheChipTheExpandedCardAndTheHalfTypedAnswerAndTheAnswerResumesTheJob() {
    String question =
        fixture
            .request(token, teamId, "Find the sources", "researcher")
            .get(0)
            .path("id")
            .asString();
    String drafting =
        fixture.request(token, teamId, "Draft the intro", "writer").get(0).path("id").asString();
    JsonNode asking = researcher.offerOf(question);
    researcher.started(asking);
    researcher.ask(asking, "Which market: Europe or Asia?");
    JsonNode writing = writer.offerOf(drafting);
    writer.started(writing);

    openTeamPage();
    WebElement answer =
        browser.waitFor(By.cssSelector("#job-" + question + " textarea[name=text]"));
    assertThat(browser.text(By.cssSelector("#job-" + question))).contains("waiting for input");
    browser.waitForText(By.cssSelector("#job-" + drafting + " summary"), "running");
    assertThat(browser.text(By.cssSelector("#member-researcher"))).contains("waiting for input");

    // The person's own state: an expanded card, a half-typed answer, a draft with a chip.
    browser.click(By.cssSelector("#job-" + drafting + " summary"));
    answer.sendKeys("Only Eur");
    WebElement text = browser.driver().findElement(By.id("composer-text"));
    text.sendKeys("Shorter please, ");
    text.sendKeys("@wri");
    text.sendKeys(Keys.ENTER);
    text.sendKeys("and cite them");

    // Live updates: the expanded card's own job completes, and the board, the state and the
    // history change.
    writer.complete(writing, "Intro drafted in 90 words.");
    String lead = fixture.memberToken(token, teamId, "lead");
    fixture.task(lead, teamId, Map.of("title", "Check the intro"));
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/state",
            lead,
            Map.of(
                "request_id",
                "live-1",
                "kind",
                "finding",
                "title",
                "Europe first",
                "content",
                "Most readers are in Europe"))
        .ok();
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/messages",
            lead,
            Map.of("to", "writer", "text", "Nice intro"))
        .ok();

    browser.waitForText(By.cssSelector("#job-" + drafting + " summary"), "completed");
    browser.waitForText(
        By.cssSelector("#job-" + drafting + " .job-body"), "Intro drafted in 90 words.");
    browser.waitForText(By.id("col-ready"), "Check the intro");
    browser.waitForText(By.id("state-active"), "Europe first");
    browser.waitForText(By.id("history-list"), "Nice intro");

    assertThat(text.getAttribute("value"))
        .as("the draft")
        .isEqualTo("Shorter please, and cite them");
    assertThat(chips()).as("the chip").containsExactly("writer");
    assertThat(
            browser
                .driver()
                .findElement(By.id("job-" + drafting + "-details"))
                .getAttribute("open"))
        .as("the expanded card")
        .isNotNull();
    assertThat(
            browser
                .driver()
                .findElement(By.cssSelector("#job-" + question + " textarea[name=text]"))
                .getAttribute("value"))
        .as("the half-typed answer")
        .isEqualTo("Only Eur");

    // The answer, finished and sent from the page, resumes the job with it.
    WebElement same =
        browser.driver().findElement(By.cssSelector("#job-" + question + " textarea[name=text]"));
    same.sendKeys("ope");
    browser.click(By.cssSelector("#job-" + question + " .answer-form button[type=submit]"));
    // The job records the answer (the page shows it with the job) and moves on.
    browser.waitForText(By.cssSelector("#job-" + question + " .job-body"), "Only Europe");
    JsonNode resumed = researcher.resumeOf(question);
    assertThat(resumed.path("resume").path("answer").asString()).isEqualTo("Only Europe");
    researcher.started(resumed);
    researcher.complete(resumed, "Sources for " + resumed.path("resume").path("answer").asString());
    browser.waitForText(By.cssSelector("#job-" + question + " summary"), "completed");
    browser.waitForText(
        By.cssSelector("#job-" + question + " .job-body"), "Sources for Only Europe");
    assertThat(fixture.job(token, question).path("state").asString()).isEqualTo("completed");
  }

  @Test
  void aJobIsCancelledFromItsCardAndATeamWithUnfinishedWorkIsNotDeleted() {
    // The lead's agent has no worker: the job stays unfinished.
    String waiting =
        fixture.request(token, teamId, "Plan the week", "lead").get(0).path("id").asString();
    openTeamPage();
    browser.waitFor(By.cssSelector("#job-" + waiting + " .actions button"));

    browser.click(By.id("delete-confirm"));
    browser.click(By.id("delete-team"));
    WebElement refusal = browser.waitFor(By.cssSelector("#delete-status .error"));
    assertThat(refusal.getText()).startsWith("Not deleted:");
    assertThat(fixture.api.get("/api/v1/teams/" + teamId, token).status()).isEqualTo(200);

    browser.click(By.cssSelector("#job-" + waiting + " .actions button"));
    browser.waitForText(By.cssSelector("#job-" + waiting + " summary"), "cancelled");
    assertThat(fixture.job(token, waiting).path("state").asString()).isEqualTo("cancelled");

    browser.click(By.id("reconnect"));
    browser.waitForText(By.id("reconnect-status"), "The team is ready.");
  }

  @Test
  void aReconnectShowsWhatWasMissedWhileThePageWasOffline() {
    openTeamPage();
    String lead = fixture.memberToken(token, teamId, "lead");
    browser.devtools("Network.enable", Map.of());
    Map<String, Object> offline =
        Map.of("offline", true, "latency", 0, "downloadThroughput", -1, "uploadThroughput", -1);
    browser.devtools("Network.emulateNetworkConditions", offline);
    try {
      browser.waitUntil(
          d -> "offline".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
      fixture.task(lead, teamId, Map.of("title", "Written while the page was away"));
      fixture
          .api
          .post(
              "/api/v1/teams/" + teamId + "/messages",
              lead,
              Map.of("to", "writer", "text", "Sent while the page was away"))
          .ok();
    } finally {
      browser.devtools(
          "Network.emulateNetworkConditions",
          Map.of("offline", false, "latency", 0, "downloadThroughput", -1, "uploadThroughput", -1));
    }
    browser.waitForText(By.id("col-ready"), "Written while the page was away");
    browser.waitForText(By.id("history-list"), "Sent while the page was away");
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
  }

  private static void openTeamPage() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
  }

  private static JsonNode started(JsonNode offer) {
    researcher.started(offer);
    return offer;
  }

  private static List<String> options() {
    List<String> names = new ArrayList<>();
    for (WebElement option :
        browser.driver().findElements(By.cssSelector("#mention-picker [role=option]"))) {
      if (option.isDisplayed()) {
        names.add(option.getAttribute("data-member"));
      }
    }
    return names;
  }

  private static String active() {
    return browser
        .driver()
        .findElement(By.cssSelector("#mention-picker [aria-selected=true]"))
        .getAttribute("data-member");
  }

  private static List<String> chips() {
    return browser.driver().findElements(By.cssSelector("#composer-chips .chip")).stream()
        .map(chip -> chip.getAttribute("data-member"))
        .toList();
  }

  private static List<JsonNode> jobsWith(String text) {
    return await()
        .atMost(ConsoleFixture.PATIENCE)
        .until(
            () -> {
              List<JsonNode> found = new ArrayList<>();
              for (JsonNode item : fixture.activity(token, teamId)) {
                if (item.path("request").path("input").asString().contains(text)) {
                  found.add(item.path("request"));
                }
              }
              return found;
            },
            found -> !found.isEmpty());
  }
}
