package io.agentteams.devstack.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium (Debian's chromium and chromedriver, no download) driving the console. Every
 * host name but loopback resolves to nothing, so a page can reach nothing outside this machine. One
 * browser serves all test classes of a JVM ({@link #shared()}); a test that needs a second person
 * opens its own ({@link #open()}) and closes it.
 */
public final class Browser implements AutoCloseable {

  /** How long a page may take to show what a test waits for, on a loaded machine. */
  public static final Duration PATIENCE = Duration.ofSeconds(40);

  /**
   * How long one navigation may take before it is abandoned and made once more: on a machine
   * starved of processor time headless Chromium has been seen to leave a navigation of a page the
   * gateway had already answered unfinished for minutes.
   */
  private static final Duration PAGE_LOAD = Duration.ofSeconds(60);

  /** Phone and desktop widths the console is checked at. */
  public static final int PHONE = 390;

  public static final int DESKTOP = 1280;

  private static @Nullable Browser shared;

  private final ChromeDriver driver;
  private final ChromeDriverService service;
  private @Nullable String axeSource;

  private Browser() {
    service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(
                new File(
                    System.getProperty("agentteams.test.chromedriver", "/usr/bin/chromedriver")))
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(System.getProperty("agentteams.test.chromium", "/usr/bin/chromium"));
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--lang=en-US",
        "--window-size=" + DESKTOP + ",900",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost");
    options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.IGNORE);
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
    driver.manage().timeouts().pageLoadTimeout(PAGE_LOAD);
  }

  /** The JVM's shared browser, started on first use and closed when the JVM ends. */
  public static synchronized Browser shared() {
    if (shared == null) {
      shared = new Browser();
      Browser started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "browser-shutdown"));
    }
    return shared;
  }

  /** A browser of its own (another person's), which the caller closes. */
  public static Browser open() {
    return new Browser();
  }

  public WebDriver driver() {
    return driver;
  }

  /** Signs in with the development sign-in, as a fresh person (no earlier session). */
  public void signIn(String gateway, String owner) {
    get(gateway + "/console/signin");
    driver.manage().deleteAllCookies();
    get(gateway + "/console/signin");
    WebElement field = waitFor(By.id("owner_id"));
    field.sendKeys(owner);
    driver.findElement(By.cssSelector("#dev-signin button[type=submit]")).click();
    waitUntil(d -> d.getCurrentUrl().endsWith("/console/teams"));
  }

  /** Clicks an element after scrolling it to the middle of the window (clear of sticky bars). */
  public void click(By by) {
    WebElement element = waitFor(by);
    script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", element);
    element.click();
  }

  /** Navigates to the page and waits for it to load; an abandoned navigation is made again once. */
  public void get(String url) {
    try {
      driver.get(url);
    } catch (TimeoutException abandoned) {
      System.err.printf(
          "Loading %s took longer than %s; loading it again%n", url, PAGE_LOAD.toSeconds() + " s");
      driver.get(url);
    }
  }

  /** The element, once it is displayed. */
  public WebElement waitFor(By by) {
    return waitUntil(
        d -> {
          List<WebElement> found = d.findElements(by);
          return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
        });
  }

  /** Waits until the condition holds (returns neither null nor false). */
  public <T> T waitUntil(Function<WebDriver, T> condition) {
    try {
      return new WebDriverWait(driver, PATIENCE)
          // A live update may replace an element between finding and reading it: look again.
          .ignoring(StaleElementReferenceException.class)
          .until(condition::apply);
    } catch (TimeoutException e) {
      // What the page showed when the wait gave up, for whoever reads the failure.
      String name = "failure-" + System.currentTimeMillis();
      screenshot(name);
      try {
        Files.writeString(
            Path.of("target", "console-screenshots", name + ".html"), driver.getPageSource());
      } catch (IOException ignored) {
        // The screenshot is enough.
      }
      throw new TimeoutException(
          e.getMessage() + " (page: " + driver.getCurrentUrl() + ", see " + name + ")", e);
    }
  }

  /** Waits until the element's text contains the expected text. */
  public WebElement waitForText(By by, String expected) {
    return waitUntil(
        d -> {
          List<WebElement> found = d.findElements(by);
          if (found.isEmpty()) {
            return null;
          }
          // The text content: text in a collapsed detail counts too.
          String text = found.get(0).getDomProperty("textContent");
          return text != null && text.contains(expected) ? found.get(0) : null;
        });
  }

  /**
   * The element's visible text as it is now. A live update may replace the element between finding
   * and reading it; then the replacement is read.
   */
  public String text(By by) {
    return waitUntil(d -> d.findElement(by).getText());
  }

  /**
   * The element's attribute as it is now, read from its replacement if a live update swapped it.
   */
  public @Nullable String attribute(By by, String name) {
    return waitUntil(d -> Optional.ofNullable(d.findElement(by).getAttribute(name))).orElse(null);
  }

  public @Nullable Object script(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /**
   * Sets a field's value as if typed, including text the driver cannot type (characters outside the
   * Basic Multilingual Plane, such as emoji), and tells the page it changed.
   */
  public void type(WebElement field, String text) {
    script(
        "arguments[0].value = arguments[1];"
            + " arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
        field,
        text);
  }

  /** Sets the width (height 900) the page is laid out at. */
  public void width(int width) {
    driver.manage().window().setSize(new Dimension(width, 900));
  }

  /** Chooses the light or dark theme with the page's own toggle. */
  public void theme(String theme) {
    WebElement toggle = waitFor(By.id("theme-toggle"));
    boolean dark = "true".equals(toggle.getAttribute("aria-pressed"));
    if (dark != "dark".equals(theme)) {
      toggle.click();
    }
    waitUntil(d -> ("dark".equals(theme)) == "true".equals(toggle.getAttribute("aria-pressed")));
  }

  /** Fails if the page opened a dialog (an alert, confirm or prompt). */
  public void assertNoDialog() {
    try {
      String text = driver.switchTo().alert().getText();
      fail("the page opened a dialog: " + text);
    } catch (NoAlertPresentException expected) {
      // No dialog: as it should be.
    }
  }

  /** The number of elements matching a CSS selector. */
  public long count(String css) {
    Object count = script("return document.querySelectorAll(arguments[0]).length;", css);
    return count == null ? 0 : ((Number) count).longValue();
  }

  /**
   * Runs axe-core in the page and returns every violation it finds, of any impact (minor and
   * moderate as well as serious and critical), each as "rule: target (impact) summary".
   */
  @SuppressWarnings("unchecked")
  public List<String> accessibilityViolations() {
    if (axeSource == null) {
      axeSource = read(Path.of("src/test/js/node_modules/axe-core/axe.min.js"));
    }
    script(axeSource);
    Object result =
        ((JavascriptExecutor) driver)
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + " axe.run(document, {resultTypes: ['violations']})"
                    + "   .then(r => done(r.violations.flatMap(v => v.nodes.map(n => v.id + ': ' +"
                    + "     n.target.join(' ') + ' (' + v.impact + ') ' + n.failureSummary))))"
                    + "   .catch(e => done(['axe failed: ' + e]));");
    return (List<String>) result;
  }

  /** Saves a screenshot of the whole page under {@code target/console-screenshots/}. */
  public Path screenshot(String name) {
    return screenshot(Path.of("target", "console-screenshots"), name);
  }

  /**
   * Where {@link #checkAndCapture} saves its pictures: {@code target/console-screenshots/}, or the
   * folder the system property {@code agentteams.console.screenshots} names ({@code
   * bin/console-screenshots} sets it to {@code docs/console/}).
   */
  public static Path pictures() {
    String folder = System.getProperty("agentteams.console.screenshots", "");
    return folder.isBlank() ? Path.of("target", "console-screenshots") : Path.of(folder);
  }

  /** Saves a screenshot of the whole page (at most 4,000 px high) in the folder. */
  public Path screenshot(Path folder, String name) {
    Dimension size = driver.manage().window().getSize();
    Object height = script("return Math.min(document.documentElement.scrollHeight, 4000);");
    driver
        .manage()
        .window()
        .setSize(new Dimension(size.getWidth(), Math.max(600, ((Number) height).intValue())));
    try {
      byte[] png = driver.getScreenshotAs(OutputType.BYTES);
      Path file = folder.resolve(name + ".png");
      Files.createDirectories(file.getParent());
      Files.write(file, png);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      driver.manage().window().setSize(size);
    }
  }

  /** Checks the page for accessibility violations of any impact and saves a picture. */
  public void checkAndCapture(String page, String theme, int width) {
    width(width);
    theme(theme);
    List<String> violations = accessibilityViolations();
    if (System.getProperty("agentteams.console.screenshots", "").isBlank()) {
      screenshot(pictures(), page + "-" + theme + "-" + width);
    } else {
      // Pictures for the documentation: the first screen only (900 px high), to keep them small.
      try {
        Path file = pictures().resolve(page + "-" + theme + "-" + width + ".png");
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    assertThat(violations).as("axe violations on %s, %s, %d px", page, theme, width).isEmpty();
  }

  /**
   * Chromium's DevTools: for tests that cut the page's network or add a script to every page.
   *
   * @return the command's result
   */
  public Map<String, Object> devtools(String command, Map<String, Object> parameters) {
    return driver.executeCdpCommand(command, parameters);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "axe-core is missing: run bin/test (or npm ci in devstack/src/test/js) first", e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      service.stop();
    }
  }
}
