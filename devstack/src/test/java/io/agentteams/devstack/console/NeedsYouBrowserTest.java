package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import tools.jackson.databind.JsonNode;

/**
 * "Needs you" in a real browser: the header's count, the tab title and the teams list's per-team
 * count rise, without a reload, when a worker asks its owner a question; the attention page lists
 * the question; on the team page a single key goes to its answer box, and the answer sent from
 * there brings the counts down again.
 */
@RealInfrastructure
class NeedsYouBrowserTest {

  private static final String OWNER = "nadia";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;
  private static ScriptedWorker analyst;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    fixture.agent(token, "planner", "planner", "Plans the survey");
    fixture.agent(token, "analyst", "analyst", "Analyses the answers");
    teamId = fixture.team(token, "Survey", "Run the survey", "planner", "analyst");
    analyst = new ScriptedWorker(fixture.api, token, "analyst");
    browser.signIn(fixture.gateway, OWNER);
  }

  @AfterAll
  static void stopWorker() {
    analyst.close();
  }

  @Test
  void theCountRisesWhenAWorkerAsksAndFallsWhenTheQuestionIsAnswered() {
    browser.get(fixture.gateway + "/console/teams");
    // The live count has arrived: nothing needs the owner yet.
    browser.waitUntil(d -> "0".equals(needsYou()));
    assertThat(browser.driver().getTitle()).isEqualTo("Teams · Agent Teams");
    assertThat(teamCount("waiting")).isEqualTo("0");
    assertThat(badge()).isEqualTo("ready");

    String jobId =
        fixture.request(token, teamId, "Which regions?", "analyst").get(0).path("id").asString();
    JsonNode offer = analyst.offerOf(jobId);
    analyst.started(offer);
    browser.waitUntil(d -> "1".equals(teamCount("running")));
    analyst.ask(offer, "Only Europe, or the whole world?");

    // Pushed to the open page, no reload.
    browser.waitUntil(d -> "1".equals(needsYou()));
    browser.waitUntil(d -> d.getTitle().equals("(1) Teams · Agent Teams"));
    assertThat(teamCount("waiting")).isEqualTo("1");
    assertThat(teamCount("running")).isEqualTo("0");
    assertThat(badge()).as("the team's badge beside its counts").isEqualTo("needs you");

    browser.click(By.id("needs-you"));
    browser.waitForText(By.id("attention-" + teamId), "Only Europe, or the whole world?");
    assertThat(
            browser
                .driver()
                .findElement(By.cssSelector("#attention-" + teamId + " [data-kind=QUESTION]"))
                .getText())
        .contains("waiting for you")
        .contains("analyst");

    // The question's link opens the team page, where the question shows outside any detail and
    // a single key goes to its answer box.
    browser.click(By.cssSelector("#attention-" + teamId + " [data-kind=QUESTION] a"));
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    WebElement question = browser.waitFor(By.cssSelector("#job-" + jobId + " .question-open"));
    assertThat(question.getText()).contains("analyst asks you").contains("Only Europe");
    browser.waitUntil(d -> d.getTitle().equals("(1) Survey · Agent Teams"));
    new Actions(browser.driver()).sendKeys("a").perform();
    WebElement answer = browser.driver().switchTo().activeElement();
    assertThat(answer.getAttribute("id")).isEqualTo("answer-" + jobId);
    answer.sendKeys("Only Europe");
    browser.click(By.cssSelector("#job-" + jobId + " .answer-form button[type=submit]"));

    browser.waitUntil(d -> "0".equals(needsYou()));
    browser.waitUntil(d -> d.getTitle().equals("Survey · Agent Teams"));
    assertThat(analyst.resumeOf(jobId).path("resume").path("answer").asString())
        .isEqualTo("Only Europe");
  }

  private static String needsYou() {
    return browser.text(By.id("needs-you-count"));
  }

  private static String badge() {
    return browser
        .driver()
        .findElement(By.cssSelector("[data-team-badge='" + teamId + "']"))
        .getText();
  }

  private static String teamCount(String name) {
    return browser
        .driver()
        .findElement(
            By.cssSelector("[data-team-counts='" + teamId + "'] [data-attention=" + name + "]"))
        .getText();
  }
}
