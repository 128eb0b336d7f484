package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import tools.jackson.databind.JsonNode;

/**
 * Creating a team in the console: the name and goal counters at the exact limits in ASCII, CJK and
 * emoji (accepted there, refused one past with the draft kept), members from the catalog search
 * with kebab-case names checked as typed and one lead, a catalog that cannot be reached, and a
 * refusal by the service that keeps the draft; the new team's page opens with its composer in reach
 * of the keyboard.
 */
@RealInfrastructure
class TeamCreationBrowserTest {

  private static final String OWNER = "cora";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String token;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    token = fixture.ownerToken(OWNER);
    fixture.agent(token, "scout", "Scout", "Finds sources and checks facts");
    fixture.agent(token, "scribe", "Scribe", "Writes drafts from notes");
    fixture.agent(token, "critic", "Critic", "Reviews what others wrote");
    browser.signIn(fixture.gateway, OWNER);
  }

  /** One limit case: text exactly at the limit and text one past it. */
  private record Case(
      String script, String nameAtLimit, String nameOver, String goalAtLimit, String goalOver) {}

  @Test
  void unicodeAtTheExactLimitsIsAcceptedAndOnePastIsRefusedWithTheDraftKept() {
    List<Case> cases =
        List.of(
            new Case("ascii", "a".repeat(80), "a".repeat(81), "g".repeat(2000), "g".repeat(2001)),
            // CJK characters are 3 UTF-8 bytes: the byte limit binds first.
            new Case(
                "cjk",
                "界".repeat(53) + "a",
                "界".repeat(54),
                "界".repeat(1333) + "a",
                "界".repeat(1334)),
            // Emoji are one character (one code point) and 4 bytes.
            new Case(
                "emoji", "🚀".repeat(40), "🚀".repeat(41), "🚀".repeat(1000), "🚀".repeat(1001)));
    for (Case c : cases) {
      browser.get(fixture.gateway + "/console/teams/new");
      browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=scout]")).click();
      browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=scribe]")).click();
      WebElement name = browser.waitFor(By.id("team-name"));
      WebElement goal = browser.driver().findElement(By.id("team-goal"));

      browser.type(name, c.nameOver());
      browser.type(goal, c.goalAtLimit());
      assertThat(counter("team-name").getAttribute("class")).as(c.script()).contains("over");
      assertThat(name.getAttribute("aria-invalid")).isEqualTo("true");
      submit();
      browser.waitForText(By.id("team-name-error"), "Too long");
      assertThat(browser.driver().getCurrentUrl()).endsWith("/console/teams/new");
      assertThat(name.getAttribute("value")).as("the draft is kept").isEqualTo(c.nameOver());

      browser.type(name, c.nameAtLimit());
      browser.type(goal, c.goalOver());
      assertThat(counter("team-name").getAttribute("class")).doesNotContain("over");
      assertThat(counter("team-name").getText())
          .isEqualTo(
              c.nameAtLimit().codePointCount(0, c.nameAtLimit().length())
                  + "/80 characters · "
                  + bytes(c.nameAtLimit())
                  + "/160 bytes");
      assertThat(counter("team-goal").getAttribute("class")).contains("over");
      submit();
      browser.waitForText(By.id("team-goal-error"), "Too long");
      assertThat(goal.getAttribute("value")).isEqualTo(c.goalOver());
      assertThat(name.getAttribute("value")).isEqualTo(c.nameAtLimit());

      browser.type(goal, c.goalAtLimit());
      assertThat(counter("team-goal").getText()).endsWith(bytes(c.goalAtLimit()) + "/4000 bytes");
      submit();
      browser.waitForText(By.id("team-name"), c.nameAtLimit().substring(0, 2));
      String teamId = createdTeamId();
      JsonNode team = fixture.api.get("/api/v1/teams/" + teamId, token).ok();
      assertThat(team.path("name").asString()).as(c.script()).isEqualTo(c.nameAtLimit());
      assertThat(team.path("goal").asString()).isEqualTo(c.goalAtLimit());
      assertThat(browser.driver().findElement(By.id("team-name")).getText())
          .isEqualTo(c.nameAtLimit());
    }
  }

  @Test
  void membersComeFromTheCatalogSearchWithKebabCaseNamesCheckedAsTypedAndOneLead() {
    browser.get(fixture.gateway + "/console/teams/new");
    browser.waitFor(By.cssSelector("[data-add-member]"));
    WebElement search = browser.driver().findElement(By.id("catalog-q"));
    search.sendKeys("drafts");
    // By description: only the scribe writes drafts.
    browser.waitUntil(d -> d.findElements(By.cssSelector("[data-add-member]")).size() == 1);
    assertThat(
            browser
                .driver()
                .findElement(By.cssSelector("[data-add-member]"))
                .getAttribute("data-agent-id"))
        .isEqualTo("scribe");
    browser.driver().findElement(By.cssSelector("[data-add-member]")).click();
    search.clear();
    search.sendKeys("Scout");
    browser.waitUntil(
        d ->
            d.findElements(By.cssSelector("[data-add-member]")).size() == 1
                && "scout"
                    .equals(
                        d.findElement(By.cssSelector("[data-add-member]"))
                            .getAttribute("data-agent-id")));
    browser.driver().findElement(By.cssSelector("[data-add-member]")).click();

    List<WebElement> names =
        browser.driver().findElements(By.cssSelector("#member-list [data-member-name]"));
    assertThat(names).hasSize(2);
    assertThat(names.get(0).getAttribute("value")).isEqualTo("scribe");
    assertThat(names.get(1).getAttribute("value")).isEqualTo("scout");
    assertThat(browser.driver().findElement(By.id("member-count")).getText())
        .startsWith("2 chosen");

    WebElement scout = names.get(1);
    scout.clear();
    scout.sendKeys("Scout Lead");
    assertThat(error(scout).getText()).contains("kebab-case");
    assertThat(scout.getAttribute("aria-invalid")).isEqualTo("true");
    scout.clear();
    scout.sendKeys("scribe");
    assertThat(error(scout).getText()).contains("Another member");
    scout.clear();
    scout.sendKeys("scout-lead");
    assertThat(error(scout).getText()).isEmpty();
    assertThat(scout.getAttribute("aria-invalid")).isNull();

    // One lead at most: choosing the scout makes it the only lead.
    List<WebElement> leads =
        browser.driver().findElements(By.cssSelector("#member-list input[name=lead]"));
    leads.get(0).click();
    leads.get(1).click();
    assertThat(leads.get(0).isSelected()).isFalse();

    browser.type(browser.driver().findElement(By.id("team-name")), "Fact check");
    browser.type(browser.driver().findElement(By.id("team-goal")), "Check the launch claims");
    // Fewer members than the least a team has: refused, nothing lost.
    browser.driver().findElements(By.cssSelector("[data-remove-member]")).get(0).click();
    submit();
    browser.waitForText(By.id("members-error"), "Choose 2 to 8 members");
    assertThat(browser.driver().getCurrentUrl()).endsWith("/console/teams/new");
    browser.driver().findElement(By.id("catalog-q")).clear();
    browser.driver().findElement(By.id("catalog-q")).sendKeys("critic");
    browser.waitUntil(
        d ->
            d.findElements(By.cssSelector("[data-add-member]")).size() == 1
                && "critic"
                    .equals(
                        d.findElement(By.cssSelector("[data-add-member]"))
                            .getAttribute("data-agent-id")));
    browser.driver().findElement(By.cssSelector("[data-add-member]")).click();
    submit();
    browser.waitForText(By.id("team-name"), "Fact check");

    String teamId = createdTeamId();
    JsonNode members = fixture.api.get("/api/v1/teams/" + teamId, token).ok().path("members");
    assertThat(members).hasSize(2);
    assertThat(members.get(0).path("name").asString()).isEqualTo("scout-lead");
    assertThat(members.get(0).path("agent_id").asString()).isEqualTo("scout");
    assertThat(members.get(0).path("lead").asBoolean()).isTrue();
    assertThat(members.get(1).path("name").asString()).isEqualTo("critic");
    assertThat(members.get(1).path("lead").asBoolean()).isFalse();
  }

  @Test
  void aCatalogThatCannotBeReachedOffersARetryAndInventsNoAgents() {
    browser.get(fixture.gateway + "/console/teams/new");
    browser.waitFor(By.cssSelector("[data-add-member]"));
    browser.devtools("Network.enable", Map.of());
    browser.devtools("Network.setBlockedURLs", Map.of("urls", List.of("*/console/catalog*")));
    try {
      browser.driver().findElement(By.id("catalog-q")).sendKeys("scout");
      browser.waitForText(By.id("catalog-results"), "could not be reached");
      assertThat(browser.count("#catalog-results [data-add-member]")).isZero();
    } finally {
      browser.devtools("Network.setBlockedURLs", Map.of("urls", List.of()));
    }
    browser.driver().findElement(By.cssSelector("#catalog-results .retry")).click();
    browser.waitFor(By.cssSelector("#catalog-results [data-add-member][data-agent-id=scout]"));
  }

  @Test
  void aTeamTheServiceRefusesComesBackAsTypedWithTheReason() {
    browser.get(fixture.gateway + "/console/teams/new");
    browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=scout]")).click();
    browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=critic]")).click();
    browser.type(browser.driver().findElement(By.id("team-name")), "Ghost team");
    browser.type(
        browser.driver().findElement(By.id("team-goal")), "Has a member bound to no agent");
    // Bound to an agent the owner never registered: only the service can tell.
    browser.script(
        "document.querySelectorAll('#member-list input[name=member_agent]')[1].value = 'ghost';");
    submit();
    WebElement error = browser.waitFor(By.id("form-error"));
    assertThat(error.getText()).containsIgnoringCase("ghost");
    assertThat(browser.driver().findElement(By.id("team-name")).getAttribute("value"))
        .isEqualTo("Ghost team");
    assertThat(browser.driver().findElement(By.id("team-goal")).getAttribute("value"))
        .isEqualTo("Has a member bound to no agent");
    assertThat(browser.driver().findElements(By.cssSelector("#member-list [data-member-name]")))
        .hasSize(2);
  }

  @Test
  void aNewTeamsComposerIsReachedInAtMostFiveTabPresses() {
    browser.get(fixture.gateway + "/console/teams/new");
    browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=scout]")).click();
    browser.waitFor(By.cssSelector("[data-add-member][data-agent-id=critic]")).click();
    browser.type(browser.driver().findElement(By.id("team-name")), "Keyboard first");
    browser.type(browser.driver().findElement(By.id("team-goal")), "Ask without a mouse");
    submit();
    browser.waitForText(By.id("team-name"), "Keyboard first");
    browser.waitUntil(d -> "complete".equals(browser.script("return document.readyState;")));

    int presses = 0;
    while (!"composer-text".equals(browser.script("return document.activeElement.id;"))
        && presses < 40) {
      new Actions(browser.driver()).sendKeys(Keys.TAB).perform();
      presses++;
    }
    assertThat(presses)
        .as("Tab presses from the new team's page to its composer")
        .isLessThanOrEqualTo(5);
  }

  /** The team whose page the browser shows, from its address. */
  private static String createdTeamId() {
    return browser
        .driver()
        .getCurrentUrl()
        .replaceAll(".*/console/teams/", "")
        .replaceAll("[?#].*", "");
  }

  private static WebElement counter(String field) {
    return browser.driver().findElement(By.id(field + "-count"));
  }

  private static WebElement error(WebElement memberName) {
    return browser.driver().findElement(By.id(memberName.getAttribute("id") + "-error"));
  }

  private static void submit() {
    browser.driver().findElement(By.id("create-team")).click();
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
