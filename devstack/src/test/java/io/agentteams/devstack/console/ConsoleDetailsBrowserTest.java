package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.test.RealInfrastructure;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * Small things a person notices, in a real browser: an unknown console address answers an HTML page
 * axe-core finds nothing wrong with; the @ picker finds a member by any part of its name; the
 * catalog's "Add" stays on one line at 390 px.
 */
@RealInfrastructure
class ConsoleDetailsBrowserTest {

  private static final String OWNER = "dita";
  private static ConsoleFixture fixture;
  private static Browser browser;
  private static String teamId;

  @BeforeAll
  static void setUp() {
    fixture = new ConsoleFixture();
    browser = Browser.shared();
    String token = fixture.ownerToken(OWNER);
    fixture.agent(token, "chief", "Chief", "Leads the desk");
    fixture.agent(token, "researcher", "Researcher", "Finds and summarises sources");
    teamId = fixture.team(token, "Desk", "Run the desk", "chief", "researcher");
    browser.signIn(fixture.gateway, OWNER);
  }

  @AfterEach
  void desktop() {
    browser.width(Browser.DESKTOP);
  }

  @Test
  void anUnknownConsoleAddressAnswersAnAccessibleHtmlPage() {
    browser.get(fixture.gateway + "/console/no-such-page");
    WebElement heading = browser.waitFor(By.tagName("h1"));
    assertThat(heading.getText()).isEqualTo("Not found");
    assertThat(browser.driver().getTitle()).isEqualTo("Not found · Agent Teams");
    assertThat(browser.script("return document.documentElement.lang;")).isEqualTo("en");
    assertThat(browser.driver().findElement(By.cssSelector("main a[href='/console/teams']")))
        .isNotNull();
    assertThat(browser.accessibilityViolations()).isEmpty();
  }

  @Test
  void theMentionPickerMatchesAnywhereInAName() {
    browser.get(fixture.gateway + "/console/teams/" + teamId);
    browser.waitUntil(
        d -> "live".equals(d.findElement(By.id("live-status")).getAttribute("data-state")));
    browser.click(By.id("composer-text"));
    WebElement text = browser.driver().findElement(By.id("composer-text"));
    text.sendKeys("@arch");
    browser.waitUntil(d -> d.findElement(By.id("mention-picker")).isDisplayed());
    List<String> shown =
        browser.driver().findElements(By.cssSelector("#mention-picker [role=option]")).stream()
            .filter(WebElement::isDisplayed)
            .map(option -> option.getAttribute("data-member"))
            .toList();
    assertThat(shown).containsExactly("researcher");
    text.sendKeys(Keys.ESCAPE);
  }

  @Test
  void theCatalogsAddButtonsStayOnOneLineOnAPhone() {
    browser.width(Browser.PHONE);
    browser.get(fixture.gateway + "/console/teams/new");
    List<WebElement> adds =
        browser.waitUntil(
            d -> {
              List<WebElement> found = d.findElements(By.cssSelector("[data-add-member]"));
              return found.size() >= 2 ? found : null;
            });
    for (WebElement add : adds) {
      assertThat(lines(add)).as(add.getAttribute("data-agent-id")).isEqualTo(1);
    }
  }

  /** The lines the element's visible text takes. */
  private static long lines(WebElement element) {
    Object count =
        browser.script(
            "const walker = document.createTreeWalker(arguments[0], NodeFilter.SHOW_TEXT);"
                + " const tops = new Set();"
                + " for (let node = walker.nextNode(); node; node = walker.nextNode()) {"
                + "   if (node.parentElement.closest('.visually-hidden')) continue;"
                + "   const range = document.createRange(); range.selectNodeContents(node);"
                + "   for (const rect of range.getClientRects()) {"
                + "     if (rect.width > 0) tops.add(Math.round(rect.top));"
                + "   }"
                + " }"
                + " return tops.size;",
            element);
    return ((Number) count).longValue();
  }
}
