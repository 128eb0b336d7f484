package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.agents.scripted.ScriptedTeam;
import io.agentteams.devstack.console.Browser;
import io.agentteams.devstack.demo.LiveDemo;
import io.agentteams.devstack.support.Sdk;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.sdk.AgentTeamsClient;
import io.agentteams.sdk.jobs.Activity;
import io.agentteams.sdk.jobs.Job;
import io.agentteams.sdk.messages.Search;
import io.agentteams.sdk.state.StateEntry;
import io.agentteams.sdk.state.StateQuery;
import io.agentteams.sdk.tasks.Task;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;

/**
 * The run command's live demo on the shared stack, and the README's quick start run against it as a
 * user would paste it: the demo team collaborates and leaves the writer's question for the owner;
 * starting the demo again makes no second team; the banner's console link shows the team and the
 * question; the quick start's commands (read from the README itself) run twice and print what the
 * README shows; the README's SDK example compiles.
 */
@RealInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LiveDemoIntegrationTest {

  private static final Duration PATIENCE = Sdk.PATIENCE;
  private static final String RUN_COMMAND = "./mvnw -Prun -DskipTests verify";

  private static final List<String> said = new CopyOnWriteArrayList<>();
  private static LiveDemo demo;

  @BeforeAll
  static void startTheDemo() {
    demo = LiveDemo.start(settings());
  }

  @AfterAll
  static void stopTheDemo() {
    if (demo != null) {
      demo.close();
    }
  }

  /** The run command's demo, at full speed (the seed is the run command's, 7). */
  private static LiveDemo.Settings settings() {
    return new LiveDemo.Settings(Sdk.gateway(), 7, Duration.ZERO, LiveDemo.OWNER, said::add);
  }

  @Test
  @Order(1)
  void theDemoTeamCollaboratesAndLeavesOneJobWaitingForTheOwnerAndStartingAgainMakesNoSecondTeam() {
    AgentTeamsClient owner = Sdk.owner(LiveDemo.OWNER);
    var team = demo.team();
    Activity activity =
        await()
            .atMost(PATIENCE)
            .until(
                () -> owner.jobs().activity(team.id(), null, null),
                a -> a.items().stream().anyMatch(i -> i.request().waitingForAnswer()));

    List<Job> waiting =
        activity.items().stream()
            .map(Activity.Item::request)
            .filter(Job::waitingForAnswer)
            .toList();
    assertThat(waiting)
        .singleElement()
        .satisfies(
            job -> {
              assertThat(job.member()).isEqualTo("writer");
              assertThat(job.question().text()).isEqualTo(ScriptedTeam.QUESTION);
            });
    Map<String, Task> board = new LinkedHashMap<>();
    owner.tasks().list(team.id()).forEach(task -> board.put(task.planKey(), task));
    assertThat(board.get("research").status()).isEqualTo("completed");
    assertThat(board.get("research").owner()).isEqualTo("researcher");
    assertThat(board.get("review").status()).isEqualTo("completed");
    assertThat(board.get("review").owner()).isEqualTo("reviewer");
    assertThat(board.get("write").status()).isEqualTo("ready");
    assertThat(owner.state().read(team.id(), StateQuery.ALL).entries())
        .extracting(StateEntry::title)
        .contains("Objective", "Plan", "Audience", "Review notes");
    assertThat(owner.mailbox().history(team.id(), new Search(null, null, null, 20, null)).records())
        .extracting(r -> r.kind() + ":" + r.sender())
        .contains("broadcast:lead", "direct:lead", "direct:researcher");
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(owner.jobs().activity(team.id(), null, null).items())
                    .filteredOn(i -> i.request().requester().equals("lead"))
                    .singleElement()
                    .satisfies(
                        handOff ->
                            assertThat(handOff.receipt().state())
                                .as("the researcher's answer came back to the lead")
                                .isEqualTo("completed")));
    assertThat(said)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains(ScriptedTeam.QUESTION)
                    .contains(waiting.get(0).id().toString()));
    assertThat(demo.banner()).contains(team.id().toString()).contains("/events");

    // A restart of the stack starts the demo again: same team, same request, nothing new.
    LiveDemo again = LiveDemo.start(settings());
    try {
      assertThat(again.team().id()).isEqualTo(team.id());
      assertThat(owner.teams().list())
          .filteredOn(t -> t.name().equals(demo.script().name()))
          .hasSize(1);
      assertThat(owner.jobs().activity(team.id(), null, null).items())
          .filteredOn(i -> i.request().requester().equals("owner"))
          .hasSize(1);
    } finally {
      again.close();
    }
  }

  @Test
  @Order(2)
  void theBannersConsoleLinkShowsTheDemoTeamWithTheWritersQuestionWaitingForTheOwner() {
    Matcher link =
        Pattern.compile("watch it in the console: (\\S+) \\(sign in as '([^']+)'\\)")
            .matcher(demo.banner());
    assertThat(link.find()).as("the banner says where to watch the demo").isTrue();
    assertThat(link.group(1)).endsWith("/console/teams/" + demo.team().id());
    AgentTeamsClient owner = Sdk.owner(LiveDemo.OWNER);
    Job question =
        await()
            .atMost(PATIENCE)
            .until(
                () ->
                    owner.jobs().activity(demo.team().id(), null, null).items().stream()
                        .map(Activity.Item::request)
                        .filter(Job::waitingForAnswer)
                        .findFirst(),
                Optional::isPresent)
            .orElseThrow();

    Browser browser = Browser.shared();
    browser.signIn(Sdk.gateway().toString(), link.group(2));
    browser.get(link.group(1));
    browser.waitForText(By.cssSelector("#member-writer"), "waiting for input");
    browser.waitForText(By.cssSelector("#job-" + question.id()), ScriptedTeam.QUESTION);
    browser.waitFor(By.cssSelector("#job-" + question.id() + " textarea[name=text]"));
    for (String member : ScriptedTeam.MEMBERS) {
      browser.waitFor(By.cssSelector("#member-" + member));
    }
  }

  @Test
  @Order(3)
  void theReadmeQuickStartRunsTwiceAndPrintsWhatTheReadmeShows() throws Exception {
    List<Block> blocks = quickStart();
    assertThat(blocks.get(0).command())
        .as("the quick start begins with the run command, which this test's stack stands in for")
        .isEqualTo(RUN_COMMAND);
    List<Block> commands = blocks.subList(1, blocks.size());
    assertThat(commands).filteredOn(b -> b.expected() != null).hasSizeGreaterThanOrEqualTo(3);
    for (int run = 1; run <= 2; run++) {
      List<String> outputs = runInOneShell(commands);
      for (int i = 0; i < commands.size(); i++) {
        Block block = commands.get(i);
        if (block.expected() != null) {
          assertThat(outputs.get(i))
              .as("run %d, the output of:%n%s", run, block.command())
              .isEqualTo(block.expected());
        }
      }
    }
  }

  @Test
  @Order(4)
  void theReadmeSdkExampleCompilesAgainstTheSdk() throws IOException {
    Matcher java = Pattern.compile("```java\\n(.*?)\\n\\s*```", Pattern.DOTALL).matcher(readme());
    assertThat(java.find()).as("the README shows a Java example").isTrue();
    String source = dedent(java.group(1));
    Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
    assertThat(name.find()).isTrue();
    Path dir = Files.createTempDirectory("readme-java");
    Path file = dir.resolve(name.group(1) + ".java");
    Files.writeString(file, source);
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    int status =
        compiler.run(
            null,
            null,
            null,
            "-d",
            dir.toString(),
            "-classpath",
            System.getProperty("java.class.path"),
            file.toString());
    assertThat(status).as("javac on the README's example").isZero();
  }

  /** A command block of the quick start and the output block after it, if any. */
  private record Block(String command, String expected) {}

  private static List<Block> quickStart() throws IOException {
    String text = readme();
    int start = text.indexOf("## Quick start");
    int end = text.indexOf("\n## ", start + 1);
    assertThat(start).as("the README has a quick start").isNotNegative();
    String section = text.substring(start, end < 0 ? text.length() : end);
    Matcher fence = Pattern.compile("```(\\w+)\\n(.*?)\\n```", Pattern.DOTALL).matcher(section);
    List<String[]> fences = new ArrayList<>();
    while (fence.find()) {
      fences.add(new String[] {fence.group(1), fence.group(2)});
    }
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < fences.size(); i++) {
      if (!fences.get(i)[0].equals("bash")) {
        continue;
      }
      String expected =
          i + 1 < fences.size() && fences.get(i + 1)[0].equals("text")
              ? fences.get(i + 1)[1]
              : null;
      blocks.add(new Block(fences.get(i)[1], expected));
    }
    return blocks;
  }

  /** Runs the blocks one after another in one bash, as pasted into one terminal. */
  private static List<String> runInOneShell(List<Block> blocks) throws Exception {
    StringBuilder script = new StringBuilder();
    for (int i = 0; i < blocks.size(); i++) {
      script.append("echo '@@block ").append(i).append("@@'\n");
      script.append(
          blocks.get(i).command().replace("http://localhost:8080", Sdk.gateway().toString()));
      script.append('\n');
    }
    Path file = Files.createTempFile("quick-start", ".sh");
    Files.writeString(file, script.toString());
    Process bash =
        new ProcessBuilder("bash", file.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    bash.getOutputStream().close();
    String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    List<String> outputs = new ArrayList<>();
    String[] parts = output.split("@@block \\d+@@\\n", -1);
    for (int i = 1; i < parts.length; i++) {
      outputs.add(parts[i].stripTrailing());
    }
    assertThat(outputs).as(output).hasSize(blocks.size());
    return outputs;
  }

  private static String readme() throws IOException {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !new File(dir.toFile(), "README.md").exists()
        || dir != null && !new File(dir.toFile(), "agent-sdk").exists()) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("the repository's README.md is not above the working folder");
    }
    return Files.readString(dir.resolve("README.md"));
  }

  private static String dedent(String block) {
    List<String> lines = block.lines().toList();
    int indent =
        lines.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    StringBuilder out = new StringBuilder();
    lines.forEach(
        l -> out.append(l.length() >= indent ? l.substring(indent) : l.strip()).append('\n'));
    return out.toString();
  }
}
