package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * Spend and budgets on the team page in a real browser: the team's budget is set from the page, the
 * scheduler's ledger refuses the next request that would pass it, and the composer shows why.
 */
@RealInfrastructure
class BudgetBrowserTest {

  private static final String OWNER = "bianca";
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
    fixture.agent(token, "lead", "lead", "Leads the forecast");
    fixture.agent(token, "analyst", "analyst", "Forecasts demand");
    teamId = fixture.team(token, "Forecast", "Forecast demand", "lead", "analyst");
    analyst = new ScriptedWorker(fixture.api, token, "analyst");
    browser.signIn(fixture.gateway, OWNER);
  }

  @AfterAll
  static void stopWorker() {
    analyst.close();
  }

  @Test
  void aBudgetSetFromTheTeamPageRefusesARequestThatWouldPassIt() {
    openTeamPage();
    assertThat(browser.driver().findElement(By.id("team-spend-line")).getText())
        .contains("The team spent 0 tokens (0.00 USD)")
        .contains("budget none");

    WebElement tokens = browser.waitFor(By.id("team-budget-tokens"));
    tokens.clear();
    tokens.sendKeys("1");
    browser.click(By.id("team-budget-save"));
    browser.waitForText(By.id("team-budget-status"), "Team budget set to 1 token.");
    assertThat(
            fixture
                .api
                .get("/api/v1/teams/" + teamId + "/spend", token)
                .ok()
                .path("team")
                .path("budget")
                .path("max_tokens")
                .asLong())
        .isEqualTo(1);

    openTeamPage();
    assertThat(browser.driver().findElement(By.id("team-budget")).getText()).isEqualTo("1");
    // A request from the composer: the ledger refuses it, and the page says why, keeping the draft.
    WebElement text = browser.driver().findElement(By.id("composer-text"));
    browser.click(By.id("composer-text"));
    text.sendKeys("@ana");
    text.sendKeys(Keys.ENTER);
    text.sendKeys("Forecast March");
    text.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
    WebElement refusal = browser.waitFor(By.cssSelector("#composer-status .error"));
    assertThat(refusal.getText()).contains("budget").contains("limit 1").contains("needed");
    assertThat(text.getAttribute("value")).isEqualTo("Forecast March");
    assertThat(fixture.activity(token, teamId)).as("nothing was asked").isEmpty();
  }

  private static void openTeamPage() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
  }
}
