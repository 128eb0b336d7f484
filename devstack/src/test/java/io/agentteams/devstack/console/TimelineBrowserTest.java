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
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * The team page's timeline in a real browser: a request and the three hand-offs that followed from
 * it show live as one conversation, each step with its member, state, start time (relative, the
 * exact time on hover) and a short id.
 */
@RealInfrastructure
class TimelineBrowserTest {

  private static final String OWNER = "tilda";
  private static final List<String> AGENTS = List.of("editor", "finder", "checker", "writer");
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;
  private static String teamId;
  private static final List<ScriptedWorker> workers = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    for (String agent : AGENTS) {
      fixture.agent(token, agent, agent, "The " + agent + " of the piece");
    }
    teamId = fixture.team(token, "Piece", "Write the piece", AGENTS.toArray(String[]::new));
    for (String agent : AGENTS) {
      workers.add(new ScriptedWorker(fixture.api, token, agent));
    }
    browser.signIn(fixture.gateway, OWNER);
  }

  @AfterAll
  static void stopWorkers() {
    workers.forEach(ScriptedWorker::close);
  }

  @Test
  void aRequestAndItsThreeHandOffsShowLiveAsOneConversation() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));

    String first =
        fixture.request(token, teamId, "Write about tides", "editor").get(0).path("id").asString();
    String jobId = first;
    // Each member hands the work on to the next with its job's member token.
    for (int i = 0; i < AGENTS.size() - 1; i++) {
      ScriptedWorker worker = workers.get(i);
      JsonNode offer = worker.offerOf(jobId);
      worker.started(offer);
      JsonNode handed =
          fixture
              .api
              .post(
                  "/api/v1/teams/" + teamId + "/requests",
                  offer.path("member_token").asString(),
                  Map.of("recipients", List.of(AGENTS.get(i + 1)), "text", "Step " + (i + 2)))
              .ok();
      jobId = handed.path("jobs").get(0).path("id").asString();
    }
    ScriptedWorker last = workers.get(AGENTS.size() - 1);
    JsonNode offer = last.offerOf(jobId);
    last.started(offer);
    last.complete(offer, "Tides drafted.");

    String chainId = fixture.job(token, first).path("chain_id").asString();
    String asked = "#chain-" + chainId + " .chain-step:not([data-kind=receipt])";
    String lastJob = jobId;
    browser.waitForText(
        By.cssSelector("#chain-" + chainId + " [data-job='" + lastJob + "']"), "Tides drafted.");
    // Later changes of the chain's jobs (receipts, leases) replace the group live: read it whole,
    // again when it was replaced while being read.
    await()
        .atMost(ConsoleFixture.PATIENCE)
        .ignoreException(StaleElementReferenceException.class)
        .untilAsserted(
            () -> {
              WebElement chain = browser.driver().findElement(By.id("chain-" + chainId));
              assertThat(chain.findElement(By.className("chain-head")).getText())
                  .contains("editor → finder → checker → writer")
                  .contains("3 hand-offs");
              List<WebElement> steps = browser.driver().findElements(By.cssSelector(asked));
              assertThat(steps).hasSize(4);
              assertThat(steps.get(0).getText()).contains("editor").contains("request");
              assertThat(steps.get(3).getText()).contains("writer").contains("hand-off");
              // The finished step says how long it took and shows its result's excerpt.
              assertThat(steps.get(3).findElement(By.className("duration")).getText())
                  .startsWith("took ");
              assertThat(steps.get(3).findElement(By.className("excerpt")).getText())
                  .isEqualTo("Tides drafted.");
              assertThat(
                      steps
                          .get(0)
                          .findElement(By.className("copy-id"))
                          .getAttribute("data-copy-text"))
                  .isEqualTo(first);
              WebElement started = steps.get(0).findElement(By.cssSelector(".when time"));
              assertThat(started.getText()).endsWith("ago");
              assertThat(started.getAttribute("title")).endsWith("UTC");
              assertThat(steps.get(0).findElement(By.tagName("code")).getText())
                  .isEqualTo(first.substring(0, 8));
              assertThat(
                      browser
                          .driver()
                          .findElements(By.cssSelector("#timeline-list > .chain"))
                          .stream()
                          .filter(c -> c.getText().contains("Step 2"))
                          .count())
                  .as("the hand-offs are not chains of their own")
                  .isEqualTo(1);
            });
  }
}
