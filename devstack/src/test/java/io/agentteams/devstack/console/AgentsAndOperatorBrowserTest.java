package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.test.RealInfrastructure;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * The agents page (register, edit, mint a worker token shown once, revoke its tokens, delete it, a
 * webhook agent's signing secret shown once and rotated) and the operator page (the deployment's
 * admission and backlog, for operators only).
 */
@RealInfrastructure
class AgentsAndOperatorBrowserTest {

  @Test
  void agentsAreRegisteredEditedAndGivenAWorkerTokenShownOnce() {
    ConsoleFixture fixture = new ConsoleFixture();
    Browser browser = Browser.shared();
    browser.signIn(fixture.gateway, "ada");
    browser.get(fixture.gateway + "/console/agents");
    register(browser, "helper", "Helper", "Helps with everything");
    browser.waitForText(By.cssSelector(".notice"), "Saved helper");
    assertThat(browser.waitFor(By.id("agent-helper")).getText())
        .contains("Helper")
        .contains("Helps with everything")
        .contains("pull");

    // The same id again: refused with the reason, the form as typed.
    register(browser, "helper", "Helper twice", "Again");
    assertThat(browser.waitFor(By.id("agent-form-error")).getText()).isNotBlank();
    assertThat(browser.attribute(By.id("agent-name"), "value")).isEqualTo("Helper twice");

    browser.get(fixture.gateway + "/console/agents");
    browser.click(By.cssSelector("#agent-helper a[href$='/edit']"));
    WebElement description = browser.waitFor(By.id("agent-description"));
    description.clear();
    description.sendKeys("Helps with reviews");
    browser.click(By.cssSelector("#agent-form button[type=submit]"));
    browser.waitForText(By.id("agent-helper"), "Helps with reviews");

    browser.click(By.cssSelector("#agent-helper .agent-actions button"));
    WebElement token = browser.waitFor(By.cssSelector("#token-helper input[data-token]"));
    String minted = token.getAttribute("value");
    assertThat(minted).isNotBlank();
    assertThat(browser.text(By.cssSelector("#token-helper .token")))
        .containsPattern("it lives \\d+ (hours?|minutes?)\\.")
        .doesNotContain(" 1 hours");
    browser.click(By.cssSelector("#token-helper button[data-copy]"));
    browser.waitUntil(
        d -> !d.findElement(By.cssSelector("#token-helper .copy-status")).getText().isBlank());
    // The gateway takes the minted token as the agent's worker (a made-up one it refuses).
    String report = "/api/v1/jobs/" + UUID.randomUUID() + "/events";
    Map<String, String> heartbeat = Map.of("type", "heartbeat", "lease_token", "none");
    assertThat(fixture.api.post(report, minted, heartbeat).status()).isNotEqualTo(401);
    assertThat(fixture.api.post(report, minted + "x", heartbeat).status()).isEqualTo(401);

    browser.get(fixture.gateway + "/console/agents");
    browser.waitFor(By.id("agent-helper"));
    assertThat(browser.driver().getPageSource()).as("a token is shown once").doesNotContain(minted);

    // Revoking the agent's tokens asks first, naming the agent; then the minted token is refused.
    assertThat(
            browser
                .driver()
                .findElement(By.cssSelector("#agent-helper button[data-revoke]"))
                .isDisplayed())
        .isFalse();
    browser.click(By.cssSelector("#agent-helper [data-confirm-revoke] summary"));
    assertThat(browser.waitFor(By.cssSelector("#agent-helper [data-confirm-revoke] p")).getText())
        .contains("Revoke every token of");
    browser.click(By.cssSelector("#agent-helper button[data-revoke]"));
    assertThat(browser.waitFor(By.cssSelector("#token-helper [data-revoked]")).getText())
        .contains("Revoked 1 token");
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> assertThat(fixture.api.post(report, minted, heartbeat).status()).isEqualTo(401));

    // Deleting the agent asks first, naming it; then it leaves the list.
    browser.click(By.cssSelector("#agent-helper [data-confirm-delete] summary"));
    assertThat(browser.waitFor(By.cssSelector("#agent-helper form[data-delete] p")).getText())
        .contains("Delete the agent")
        .contains("(helper)");
    browser.click(By.cssSelector("#agent-helper form[data-delete] button"));
    browser.waitForText(By.cssSelector(".notice"), "Deleted helper");
    assertThat(browser.driver().findElements(By.id("agent-helper"))).isEmpty();
  }

  @Test
  void aWebhookAgentsSigningSecretIsShownOnceAndRotatedAndAPrivateEndpointIsRefused() {
    ConsoleFixture fixture = new ConsoleFixture();
    Browser browser = Browser.shared();
    browser.signIn(fixture.gateway, "wren");
    browser.get(fixture.gateway + "/console/agents");

    registerWebhook(browser, "metadata", "http://169.254.169.254/latest/meta-data");
    assertThat(browser.waitFor(By.id("agent-form-error")).getText())
        .contains("link-local and cloud metadata");

    browser.get(fixture.gateway + "/console/agents");
    // The test stack's outbound guard allows 127.0.0.1 alone; nothing listens on port 9.
    registerWebhook(browser, "pusher", "http://127.0.0.1:9/hook");
    WebElement shown = browser.waitFor(By.cssSelector("#token-pusher input[data-secret]"));
    String secret = shown.getAttribute("value");
    assertThat(secret).startsWith("whsec_");
    assertThat(browser.waitFor(By.id("agent-pusher")).getText()).contains("webhook");

    browser.get(fixture.gateway + "/console/agents");
    browser.waitFor(By.id("agent-pusher"));
    assertThat(browser.driver().getPageSource())
        .as("a secret is shown once")
        .doesNotContain(secret);

    browser.click(By.cssSelector("#agent-pusher button[data-rotate]"));
    WebElement rotated = browser.waitFor(By.cssSelector("#token-pusher input[data-secret]"));
    assertThat(rotated.getAttribute("value")).startsWith("whsec_").isNotEqualTo(secret);
    assertThat(browser.text(By.id("token-pusher"))).contains("The previous secret signs too until");
  }

  @Test
  void theOperatorPageShowsAdmissionAndBacklogToOperatorsOnly() {
    ConsoleFixture fixture = new ConsoleFixture();
    Browser browser = Browser.shared();
    browser.signIn(fixture.gateway, "nora");
    assertThat(browser.driver().findElements(By.cssSelector("a[href='/console/operator']")))
        .isEmpty();
    browser.get(fixture.gateway + "/console/operator");
    assertThat(browser.waitFor(By.tagName("h1")).getText()).isEqualTo("403 Forbidden");

    String token = fixture.ownerToken("oscar");
    fixture.agent(token, "asker", "Asker", "Asks");
    fixture.agent(token, "other", "Other", "Other");
    String teamId = fixture.team(token, "Questions", "Ask the owner", "asker", "other");
    try (ScriptedWorker worker = new ScriptedWorker(fixture.api, token, "asker")) {
      String jobId = fixture.request(token, teamId, "Ask me", "asker").get(0).path("id").asString();
      var offer = worker.offerOf(jobId);
      worker.started(offer);
      worker.ask(offer, "Ready?");

      browser.signIn(fixture.gateway, "olga-operator");
      browser.click(By.cssSelector("a[href='/console/operator']"));
      assertThat(browser.waitFor(By.id("figure-slots")).getText()).containsPattern("\\d+ of 8");
      // The figures refresh on their own (the scheduler measures every few seconds).
      browser.waitUntil(
          d ->
              Integer.parseInt(d.findElement(By.cssSelector("#figure-waiting .value")).getText())
                  >= 1);
      assertThat(browser.text(By.id("outboxes")))
          .contains("team-service")
          .contains("mailbox-service")
          .contains("task-board-service")
          .contains("scheduler-service");
      assertThat(browser.text(By.id("consumer-lag"))).contains("mailbox-service.delivery");
    }
  }

  @Test
  void theAgentsPageAndTheRosterShowWhetherAMembersWorkerIsConnected() {
    ConsoleFixture fixture = new ConsoleFixture();
    Browser browser = Browser.shared();
    String owner = "vera-" + UUID.randomUUID().toString().substring(0, 8);
    String token = fixture.ownerToken(owner);
    fixture.agent(token, "solo", "Solo", "Works alone");
    fixture.agent(token, "mate", "Mate", "Keeps it company");
    String teamId = fixture.team(token, "Presence", "See who is there", "solo", "mate");
    browser.signIn(fixture.gateway, owner);

    browser.get(fixture.gateway + "/console/agents");
    assertThat(browser.waitFor(By.id("worker-solo")).getAttribute("data-worker"))
        .isEqualTo("absent");
    assertThat(browser.text(By.id("worker-solo"))).contains("No worker connected");
    assertThat(worker(fixture, token, "solo").path("connected").asBoolean()).isFalse();
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitForText(By.id("member-solo"), "no worker connected");

    try (ScriptedWorker worker = new ScriptedWorker(fixture.api, token, "solo")) {
      await()
          .atMost(Browser.PATIENCE)
          .until(() -> worker(fixture, token, "solo").path("connected").asBoolean());
      assertThat(worker(fixture, token, "solo").path("streams").asInt()).isEqualTo(1);
      browser.get(fixture.gateway + "/console/teams/" + teamId);
      browser.waitForText(By.id("member-solo"), "idle");
      browser.waitForText(By.id("member-mate"), "no worker connected");

      // The owner interrupts the member's running turn from the team page.
      String jobId =
          fixture.request(token, teamId, "A long turn", "solo").get(0).path("id").asString();
      worker.started(worker.offerOf(jobId));
      browser.get(fixture.gateway + "/console/teams/" + teamId);
      browser.waitForText(By.cssSelector("#job-" + jobId + " summary"), "running");
      browser.click(By.cssSelector("#job-" + jobId + " button[data-interrupt]"));
      // The card shows the job's end as soon as its event arrives (which also replaces the
      // button's status line).
      browser.waitForText(By.cssSelector("#job-" + jobId + " summary"), "interrupted");
      assertThat(fixture.job(token, jobId).path("state").asString()).isEqualTo("interrupted");

      // The agents page shows the worker; it then follows it without a reload (below).
      browser.get(fixture.gateway + "/console/agents");
      browser.waitUntil(
          d -> "connected".equals(d.findElement(By.id("worker-solo")).getAttribute("data-worker")));
      assertThat(browser.text(By.id("worker-solo")))
          .contains("Worker connected")
          .contains("1 stream");
      assertThat(browser.attribute(By.id("worker-mate"), "data-worker")).isEqualTo("absent");
    }
    // The stream closed: not connected any more, and the open page shows it on its own.
    await()
        .atMost(Browser.PATIENCE)
        .until(() -> !worker(fixture, token, "solo").path("connected").asBoolean());
    browser.waitUntil(
        d -> "absent".equals(d.findElement(By.id("worker-solo")).getAttribute("data-worker")));
  }

  private static JsonNode worker(ConsoleFixture fixture, String token, String agentId) {
    return fixture.api.get("/api/v1/agents/" + agentId + "/worker", token).ok();
  }

  private static void registerWebhook(Browser browser, String id, String endpoint) {
    WebElement idField = browser.waitFor(By.id("agent-id"));
    idField.clear();
    idField.sendKeys(id);
    browser.driver().findElement(By.id("agent-name")).clear();
    browser.driver().findElement(By.id("agent-name")).sendKeys(id);
    browser.click(By.cssSelector("#agent-form input[name=runtime_kind][value=webhook]"));
    browser.driver().findElement(By.id("agent-endpoint")).clear();
    browser.driver().findElement(By.id("agent-endpoint")).sendKeys(endpoint);
    browser.click(By.cssSelector("#agent-form button[type=submit]"));
  }

  private static void register(Browser browser, String id, String name, String description) {
    WebElement idField = browser.waitFor(By.id("agent-id"));
    idField.clear();
    idField.sendKeys(id);
    browser.driver().findElement(By.id("agent-name")).clear();
    browser.driver().findElement(By.id("agent-name")).sendKeys(name);
    browser.driver().findElement(By.id("agent-description")).clear();
    browser.driver().findElement(By.id("agent-description")).sendKeys(description);
    browser.click(By.cssSelector("#agent-form button[type=submit]"));
  }
}
