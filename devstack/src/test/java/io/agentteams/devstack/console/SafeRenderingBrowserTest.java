package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * Untrusted text is text: markup in a team name, a message, a state entry and a task title shows as
 * the characters typed, creates no element and opens no dialog, whether in the page as read or as
 * it arrives live.
 */
@RealInfrastructure
class SafeRenderingBrowserTest {

  private static final String HOSTILE = "<img src=x onerror=alert(1)>";

  @Test
  void hostileTextInANameAMessageAStateEntryAndATaskTitleRendersInert() {
    ConsoleFixture fixture = new ConsoleFixture();
    Browser browser = Browser.shared();
    String token = fixture.ownerToken("hal");
    fixture.agent(token, "one", "One", "First");
    fixture.agent(token, "two", "Two", "Second");
    String teamId = fixture.team(token, HOSTILE, "Goal " + HOSTILE, "one", "two");
    String member = fixture.memberToken(token, teamId, "one");
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/messages",
            member,
            Map.of("to", "two", "text", "Message " + HOSTILE))
        .ok();
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/state",
            member,
            Map.of(
                "request_id",
                "x1",
                "kind",
                "finding",
                "title",
                "State " + HOSTILE,
                "content",
                "<script>alert(2)</script>"))
        .ok();
    fixture.task(member, teamId, Map.of("title", "Task " + HOSTILE));

    browser.signIn(fixture.gateway, "hal");
    assertThat(browser.waitForText(By.id("team-list"), HOSTILE).getText()).contains(HOSTILE);
    browser.assertNoDialog();
    assertThat(browser.count("img[src='x']")).isZero();

    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    assertThat(browser.driver().findElement(By.id("team-name")).getText()).isEqualTo(HOSTILE);
    browser.waitForText(By.id("history-list"), "Message " + HOSTILE);
    browser.waitForText(By.id("state-active"), "State " + HOSTILE);
    browser.waitForText(By.id("state-active"), "<script>alert(2)</script>");
    browser.waitForText(By.id("col-ready"), "Task " + HOSTILE);

    // The same arriving live.
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/messages",
            member,
            Map.of("to", "two", "text", "Live " + HOSTILE))
        .ok();
    fixture.task(member, teamId, Map.of("title", "Live task " + HOSTILE));
    fixture
        .api
        .post(
            "/api/v1/teams/" + teamId + "/state",
            member,
            Map.of(
                "request_id",
                "x2",
                "kind",
                "finding",
                "title",
                "Live state " + HOSTILE,
                "content",
                "<b>bold</b>"))
        .ok();
    browser.waitForText(By.id("history-list"), "Live " + HOSTILE);
    browser.waitForText(By.id("col-ready"), "Live task " + HOSTILE);
    browser.waitForText(By.id("state-active"), "Live state " + HOSTILE);

    browser.assertNoDialog();
    assertThat(browser.count("img[src='x']")).as("no image element from untrusted text").isZero();
    assertThat(browser.count("main script:not([src])"))
        .as("no inline script from untrusted text")
        .isZero();
    assertThat(browser.count("main b")).isZero();
    assertThat(browser.driver().getTitle()).startsWith(HOSTILE);
  }
}
