package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;

/**
 * Two owners in two browsers never see each other's teams, not in their lists, not by address, not
 * on the live stream; and a change without the session's CSRF token is refused.
 */
@RealInfrastructure
class OwnerIsolationBrowserTest {

  @Test
  void twoOwnersInTwoBrowsersNeverSeeEachOthersTeams() {
    ConsoleFixture fixture = new ConsoleFixture();
    String uma = fixture.ownerToken("uma");
    String vic = fixture.ownerToken("vic");
    for (String owner : new String[] {uma, vic}) {
      fixture.agent(owner, "a", "A", "First");
      fixture.agent(owner, "b", "B", "Second");
    }
    String umasTeam = fixture.team(uma, "Uma's secret plans", "Hidden", "a", "b");
    String vicsTeam = fixture.team(vic, "Vic's secret plans", "Hidden", "a", "b");

    Browser first = Browser.shared();
    try (Browser second = Browser.open()) {
      first.signIn(fixture.gateway, "uma");
      second.signIn(fixture.gateway, "vic");
      assertThat(first.waitFor(By.id("team-list")).getText())
          .contains("Uma's secret plans")
          .doesNotContain("Vic's");
      assertThat(second.waitFor(By.id("team-list")).getText())
          .contains("Vic's secret plans")
          .doesNotContain("Uma's");

      second.get(fixture.gateway + "/console/teams/" + umasTeam);
      assertThat(second.waitFor(By.tagName("main")).getText())
          .contains("There is no such team among yours.")
          .doesNotContain("Uma");
      assertThat(status(second, "/console/teams/" + umasTeam + "/live", "GET", true))
          .isEqualTo(404);
      assertThat(status(second, "/console/teams/" + umasTeam + "/history", "GET", true))
          .isIn(404, 502);
      first.get(fixture.gateway + "/console/teams/" + vicsTeam);
      assertThat(first.waitFor(By.tagName("main")).getText())
          .contains("There is no such team among yours.");

      // Another owner's team cannot be changed either, even with a valid token of one's own.
      assertThat(status(second, "/console/teams/" + umasTeam + "/reconnect", "POST", true))
          .isEqualTo(404);
      assertThat(fixture.api.get("/api/v1/teams/" + umasTeam, uma).status()).isEqualTo(200);
    }
  }

  @Test
  void aChangeWithoutTheSessionsCsrfTokenIsRefused() {
    ConsoleFixture fixture = new ConsoleFixture();
    String token = fixture.ownerToken("wes");
    fixture.agent(token, "a", "A", "First");
    fixture.agent(token, "b", "B", "Second");
    String teamId = fixture.team(token, "Guarded", "Guarded", "a", "b");
    Browser browser = Browser.shared();
    browser.signIn(fixture.gateway, "wes");
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitFor(By.id("composer"));

    assertThat(status(browser, "/console/teams/" + teamId + "/reconnect", "POST", false))
        .isEqualTo(403);
    assertThat(formStatus(browser, "/console/teams/" + teamId + "/delete", "confirm=yes", "forged"))
        .isEqualTo(403);
    assertThat(
            formStatus(
                browser,
                "/console/teams/" + teamId + "/state",
                "kind=plan&title=Forged&content=x",
                "forged"))
        .isEqualTo(403);
    assertThat(fixture.api.get("/api/v1/teams/" + teamId, token).status()).isEqualTo(200);
    assertThat(fixture.api.get("/api/v1/teams/" + teamId + "/state", token).ok().path("entries"))
        .isEmpty();
    // The same request with the page's token goes through.
    assertThat(status(browser, "/console/teams/" + teamId + "/reconnect", "POST", true))
        .isEqualTo(200);
  }

  /** The status a request from the page gets, with or without the page's CSRF token. */
  private static int status(Browser browser, String path, String method, boolean withToken) {
    Object status =
        browser.driver() instanceof JavascriptExecutor js
            ? js.executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + " const headers = {'HX-Request': 'true'};"
                    + " const token = document.querySelector('meta[name=csrf-token]');"
                    + " if (arguments[2] && token) headers['X-CSRF-TOKEN'] = token.content;"
                    + " fetch(arguments[0], {method: arguments[1], headers, redirect: 'manual'})"
                    + "   .then(r => done(r.status)).catch(e => done(-1));",
                path,
                method,
                withToken)
            : -1;
    return ((Number) status).intValue();
  }

  private static int formStatus(Browser browser, String path, String body, String token) {
    Object status =
        ((JavascriptExecutor) browser.driver())
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + " fetch(arguments[0], {method: 'POST', redirect: 'manual',"
                    + "   headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
                    + "   body: arguments[1] + '&_csrf=' + encodeURIComponent(arguments[2])})"
                    + "   .then(r => done(r.status)).catch(e => done(-1));",
                path,
                body,
                token);
    return ((Number) status).intValue();
  }
}
