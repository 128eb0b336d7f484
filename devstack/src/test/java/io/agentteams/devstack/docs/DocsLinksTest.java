package io.agentteams.devstack.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README and the guides under {@code docs/} stay true to the repository they describe: every
 * relative link names a file that exists, every anchor ({@code #heading} in the same file or {@code
 * file.md#heading}) names a heading of that file as GitHub makes its id, the README stays a front
 * door of at most {@value #README_MAX_LINES} lines, and the two commands it gives are the ones the
 * repository runs: the test command is an executable script {@code .ci/run} calls, the run command
 * is the Maven wrapper with profiles a POM declares, and the quick start starts the stack with it.
 * A plain test: it reads files and starts nothing.
 */
class DocsLinksTest {

  static final int README_MAX_LINES = 400;

  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
  private static final Pattern MARKDOWN_LINK =
      Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern HTML_LINK =
      Pattern.compile("<(?:a|img)\\b[^>]*?\\s(?:href|src)=\"([^\"]+)\"");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:|^//");
  private static final Pattern SCRIPT_PATH = Pattern.compile("`((?:bin|\\.ci)/[^`\\s]+)");
  private static final Pattern COMMAND_ROW =
      Pattern.compile("^\\|\\s*([^|]+?)\\s*\\|\\s*`([^`]+)`");
  private static final Pattern ENDS_IN = Pattern.compile("`bin/test` \\(which ends in `([^`]+)`");

  private final Path root = repositoryRoot();

  @Test
  void everyRelativeLinkNamesAFileThatExistsAndEveryAnchorAHeadingOfItsFile() {
    assertThat(documents(root)).contains(root.resolve("README.md"));

    assertThat(brokenLinks(root)).isEmpty();
  }

  @Test
  void theReadmeIsAFrontDoorOfAtMostFourHundredLines() throws IOException {
    List<String> lines = Files.readAllLines(root.resolve("README.md"));

    assertThat(lines.size())
        .as("README.md's lines; guides belong under docs/")
        .isLessThanOrEqualTo(README_MAX_LINES);
  }

  @Test
  void theTwoCommandsAreTheOnesTheRepositoryRuns() throws IOException {
    String readme = Files.readString(root.resolve("README.md"));
    Map<String, String> commands = twoCommands(readme);
    assertThat(commands).as("the rows of \"The two commands\"").hasSize(2);
    String test = commandOf(commands, "run every test");
    String run = commandOf(commands, "run the product");

    Path script = root.resolve(test);
    assertThat(Files.isRegularFile(script) && Files.isExecutable(script))
        .as("the test command %s is an executable script of the repository", test)
        .isTrue();
    assertThat(commandLines(root.resolve(".ci/run")))
        .as(".ci/run runs exactly the test command")
        .anySatisfy(line -> assertThat(line).matches("(exec )?\\Q" + test + "\\E( .*)?"));

    assertThat(run).as("the run command uses the Maven wrapper").startsWith("./mvnw ");
    assertThat(Files.isExecutable(root.resolve("mvnw"))).as("./mvnw is executable").isTrue();
    Matcher profiles = Pattern.compile("(?:^| )-P(\\S+)").matcher(run);
    assertThat(profiles.find()).as("the run command names its profile").isTrue();
    Set<String> declared = declaredProfiles(root);
    for (String profile : profiles.group(1).split(",")) {
      assertThat(declared).as("profiles the POMs declare").contains(profile);
    }
    assertThat(firstBashBlock(section(readme, "## Quick start")))
        .as("the quick start starts the stack with the run command")
        .isEqualTo(run);

    Matcher endsIn = ENDS_IN.matcher(Files.readString(root.resolve("docs/tests.md")));
    if (endsIn.find()) {
      List<String> lines = commandLines(script);
      assertThat(lines.get(lines.size() - 1))
          .as("what docs/tests.md says the test command ends in")
          .startsWith(endsIn.group(1));
    }
  }

  @Test
  void everyScriptTheDocumentsNameExists() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path document : documents(root)) {
      Matcher path = SCRIPT_PATH.matcher(Files.readString(document));
      while (path.find()) {
        if (!Files.exists(root.resolve(path.group(1)))) {
          missing.add(root.relativize(document) + " names " + path.group(1));
        }
      }
    }

    assertThat(missing).isEmpty();
  }

  @Test
  void aLinkToAMissingFileOrHeadingIsFound(@TempDir Path repository) throws IOException {
    Files.createDirectories(repository.resolve("docs"));
    Files.writeString(
        repository.resolve("README.md"),
        String.join(
            "\n",
            "# Front door",
            "## What's new, and why?",
            "[fine](docs/guide.md#a-heading) [fine too](#whats-new-and-why)",
            "[gone](docs/missing.md) [no such heading](docs/guide.md#nowhere)",
            "`[in code](docs/ignored.md)` [elsewhere](https://example.com/x.md)",
            "```",
            "[in a fence](docs/ignored-too.md)",
            "```",
            "<img src=\"docs/missing.png\" alt=\"\">"));
    Files.writeString(
        repository.resolve("docs/guide.md"),
        String.join(
            "\n", "# Guide", "## A heading", "## A heading", "[back](../README.md#a-heading-1)"));

    assertThat(brokenLinks(repository))
        .containsExactlyInAnyOrder(
            "README.md: docs/missing.md: no such file",
            "README.md: docs/guide.md#nowhere: no heading 'nowhere' in docs/guide.md",
            "README.md: docs/missing.png: no such file",
            "docs/guide.md: ../README.md#a-heading-1: no heading 'a-heading-1' in README.md");
  }

  @Test
  void headingIdsAreGitHubs() {
    assertThat(slugs(List.of("## Ports (embedded default)")))
        .containsExactly("ports-embedded-default");
    assertThat(slugs(List.of("### The node's capacity"))).containsExactly("the-nodes-capacity");
    assertThat(slugs(List.of("## `agentteams.*` settings, A2A & MCP")))
        .containsExactly("agentteams-settings-a2a--mcp");
    assertThat(slugs(List.of("## Team runs", "## Team runs", "## Team runs")))
        .containsExactly("team-runs", "team-runs-1", "team-runs-2");
    assertThat(slugs(List.of("```", "# not a heading", "```"))).isEmpty();
  }

  /** README.md and every Markdown file directly under docs/. */
  static List<Path> documents(Path root) {
    List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> files = Files.list(docs)) {
        files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(documents::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return documents;
  }

  /** Every relative link or anchor of the documents that leads nowhere, one line each. */
  static List<String> brokenLinks(Path root) {
    Map<Path, Set<String>> headings = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path document : documents(root)) {
      for (String target : links(read(document))) {
        if (SCHEME.matcher(target).find()) {
          continue;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file =
            path.isEmpty()
                ? document
                : document
                    .getParent()
                    .resolve(URLDecoder.decode(path, StandardCharsets.UTF_8))
                    .normalize();
        String where = root.relativize(document) + ": " + target + ": ";
        if (!Files.exists(file)) {
          broken.add(where + "no such file");
        } else if (anchor != null && !anchor.isEmpty()) {
          if (!file.toString().endsWith(".md")) {
            broken.add(where + "an anchor into a file that is not Markdown");
          } else if (!headings
              .computeIfAbsent(file, f -> new LinkedHashSet<>(slugs(read(f).lines().toList())))
              .contains(anchor)) {
            broken.add(where + "no heading '" + anchor + "' in " + root.relativize(file));
          }
        }
      }
    }
    return broken;
  }

  /** The link targets of a Markdown text, outside fenced blocks and code spans. */
  static List<String> links(String markdown) {
    List<String> targets = new ArrayList<>();
    for (String line : prose(markdown.lines().toList())) {
      String text = CODE_SPAN.matcher(line).replaceAll("");
      for (Pattern pattern : List.of(MARKDOWN_LINK, HTML_LINK)) {
        Matcher link = pattern.matcher(text);
        while (link.find()) {
          targets.add(link.group(1));
        }
      }
    }
    return targets;
  }

  /**
   * The ids GitHub gives the headings of a Markdown text, in order: the heading's text without its
   * code-span backticks and link targets, lower-cased, every character other than a letter, a mark,
   * a digit, a connector, a space or a hyphen dropped, spaces made hyphens; a repeated id gets
   * {@code -1}, {@code -2}, ... appended.
   */
  static List<String> slugs(List<String> lines) {
    List<String> slugs = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose(lines)) {
      Matcher heading = HEADING.matcher(line);
      if (!heading.matches()) {
        continue;
      }
      String text =
          heading
              .group(2)
              .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
              .replace("`", "")
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
              .replace(' ', '-');
      int count = seen.merge(text, 1, Integer::sum);
      slugs.add(count == 1 ? text : text + "-" + (count - 1));
    }
    return slugs;
  }

  /** The lines outside fenced code blocks. */
  private static List<String> prose(List<String> lines) {
    List<String> prose = new ArrayList<>();
    boolean fenced = false;
    for (String line : lines) {
      if (FENCE.matcher(line).find()) {
        fenced = !fenced;
      } else if (!fenced) {
        prose.add(line);
      }
    }
    return prose;
  }

  /** The rows of the README's "The two commands" table: what, then the command. */
  private static Map<String, String> twoCommands(String readme) {
    Map<String, String> commands = new LinkedHashMap<>();
    for (String line : section(readme, "## The two commands").lines().toList()) {
      Matcher row = COMMAND_ROW.matcher(line);
      if (row.find()) {
        commands.put(row.group(1), row.group(2));
      }
    }
    return commands;
  }

  private static String commandOf(Map<String, String> commands, String what) {
    return commands.entrySet().stream()
        .filter(e -> e.getKey().startsWith(what))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row of the two commands starts '" + what + "'"));
  }

  private static String section(String markdown, String heading) {
    int start = markdown.indexOf("\n" + heading + "\n");
    assertThat(start).as("the README has %s", heading).isNotNegative();
    int end = markdown.indexOf("\n## ", start + 1);
    return markdown.substring(start, end < 0 ? markdown.length() : end);
  }

  private static String firstBashBlock(String markdown) {
    Matcher block = Pattern.compile("```bash\\n(.*?)\\n```", Pattern.DOTALL).matcher(markdown);
    assertThat(block.find()).as("a bash block").isTrue();
    return block.group(1).strip();
  }

  /** A shell script's lines that are neither blank nor comments, stripped. */
  private static List<String> commandLines(Path script) throws IOException {
    return Files.readAllLines(script).stream()
        .map(String::strip)
        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
        .toList();
  }

  private static Set<String> declaredProfiles(Path root) throws IOException {
    Set<String> profiles = new LinkedHashSet<>();
    Pattern profile =
        Pattern.compile("<profile>(?:\\s|<!--.*?-->)*<id>([^<]+)</id>", Pattern.DOTALL);
    try (Stream<Path> poms = Files.walk(root, 3)) {
      for (Path pom : poms.filter(p -> p.getFileName().toString().equals("pom.xml")).toList()) {
        Matcher id = profile.matcher(Files.readString(pom));
        while (id.find()) {
          profiles.add(id.group(1).strip());
        }
      }
    }
    return profiles;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The repository's root: the first folder up from here that holds README.md and agent-sdk. */
  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null
        && !(Files.exists(dir.resolve("README.md"))
            && Files.isDirectory(dir.resolve("agent-sdk")))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("the repository's README.md is not above the working folder");
    }
    return dir;
  }
}
