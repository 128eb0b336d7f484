package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * Spend and budgets in a real browser: the team's budget is set from the team page and the owner's
 * from the teams list, the scheduler's ledger refuses the next request that would pass either, and
 * the composer shows why; the teams list shows each team's spend and a 14-day trend; at 390 px no
 * spend table's header breaks inside a word.
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
  }

  @AfterAll
  static void stopWorker() {
    analyst.close();
  }

  @Test
  void aBudgetSetFromTheTeamPageRefusesARequestThatWouldPassIt() {
    browser.signIn(fixture.gateway, OWNER);
    openTeamPage();
    assertThat(browser.driver().findElement(By.id("team-spend-line")).getText())
        .contains("The team spent 0 tokens (0.00 USD)")
        .contains("no tokens budget")
        .doesNotContain("—");

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

  @Test
  void anOwnerBudgetSetFromTheTeamsListRefusesARequestAndTheListShowsSpendAndTheTrend() {
    String owner = "bruno";
    String mine = fixture.ownerToken(owner);
    fixture.agent(mine, "lead", "lead", "Leads the plan");
    fixture.agent(mine, "planner", "planner", "Plans the quarter");
    String team = fixture.team(mine, "Quarter", "Plan the quarter", "lead", "planner");
    browser.signIn(fixture.gateway, owner);

    browser.waitFor(By.id("team-list"));
    assertThat(browser.waitFor(By.id("team-spend-" + team)).getText())
        .isEqualTo("Spent 0 tokens (0.00 USD)");
    assertThat(browser.count("#owner-trend tbody tr")).as("a row per day").isEqualTo(14);
    assertThat(browser.driver().findElement(By.cssSelector("#owner-trend caption")).getText())
        .contains("0 tokens in the last 14 days");

    WebElement tokens = browser.waitFor(By.id("owner-budget-tokens"));
    tokens.clear();
    tokens.sendKeys("1");
    browser.click(By.id("owner-budget-save"));
    browser.waitForText(By.id("owner-budget-status"), "Budget across your teams set to 1 token.");
    assertThat(
            fixture
                .api
                .get("/api/v1/budget", mine)
                .ok()
                .path("owner")
                .path("budget")
                .path("max_tokens")
                .asLong())
        .isEqualTo(1);

    // The ledger refuses a request from the composer that would pass the owner's budget.
    browser.get(fixture.gateway + "/console/teams/" + team);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    WebElement text = browser.driver().findElement(By.id("composer-text"));
    browser.click(By.id("composer-text"));
    text.sendKeys("@plan");
    text.sendKeys(Keys.ENTER);
    text.sendKeys("Plan April");
    text.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
    WebElement refusal = browser.waitFor(By.cssSelector("#composer-status .error"));
    assertThat(refusal.getText()).contains("owner.tokens").contains("limit 1");
    assertThat(fixture.activity(mine, team)).as("nothing was asked").isEmpty();
    assertThat(browser.count("#team-trend tbody tr")).isEqualTo(14);

    // At 390 px no header cell of the spend tables breaks inside a word.
    browser.driver().manage().window().setSize(new Dimension(Browser.PHONE, 844));
    try {
      browser.get(fixture.gateway + "/console/teams");
      browser.waitFor(By.id("owner-trend"));
      assertThat(wordsBrokenInHeaders()).isEmpty();
      browser.get(fixture.gateway + "/console/teams/" + team + "/runs");
      browser.waitFor(By.tagName("h1"));
      assertThat(wordsBrokenInHeaders()).isEmpty();
    } finally {
      browser.width(Browser.DESKTOP);
    }
  }

  /** Words of table header cells whose letters sit on more than one line. */
  @SuppressWarnings("unchecked")
  private static List<String> wordsBrokenInHeaders() {
    return (List<String>)
        browser.script(
            "const broken = [];"
                + " for (const th of document.querySelectorAll('table th')) {"
                + "   const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);"
                + "   for (let node = walker.nextNode(); node; node = walker.nextNode()) {"
                + "     if (node.parentElement.closest('.visually-hidden')) continue;"
                + "     const re = /\\S+/g; let m;"
                + "     while ((m = re.exec(node.data)) !== null) {"
                + "       const range = document.createRange();"
                + "       range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);"
                + "       const tops = new Set([...range.getClientRects()]"
                + "         .filter(r => r.width > 0).map(r => Math.round(r.top)));"
                + "       if (tops.size > 1) broken.push(m[0]);"
                + "     }"
                + "   }"
                + " }"
                + " return broken;");
  }

  private static void openTeamPage() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
  }
}
