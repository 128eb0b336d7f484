package io.agentteams.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.ServiceStack.Service;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The settings {@link DevStack}'s Javadoc names are the ones the stack reads: an operator who
 * follows it (e.g. to move a port off one in use) changes what it says, and no port is left out.
 */
class DevStackSettingsTest {

  private static final String PREFIX = "agentteams.devstack.";
  private static final Pattern CODE = Pattern.compile("\\{@code\\s+([a-z][a-z.-]*)}");

  @Test
  void everyPortSettingTheJavadocNamesMovesThatPort() throws IOException {
    List<String> ports = documentedSettings().stream().filter(s -> s.contains("port")).toList();

    assertThat(ports).isNotEmpty();
    DevStackSettings defaults = DevStackSettings.fromSystemProperties();
    for (String port : ports) {
      DevStackSettings moved = withProperty(PREFIX + port, "1");
      assertThat(moved).as("-D" + PREFIX + port + "=1 changes a port").isNotEqualTo(defaults);
    }
  }

  @Test
  void theJavadocNamesEveryPortTheStackReads() throws IOException {
    List<String> expected = new ArrayList<>(List.of("postgres-port", "kafka-port"));
    expected.add("kafka-controller-port");
    for (Service service : Service.values()) {
      expected.add("port." + service.id());
    }

    assertThat(documentedSettings()).containsAll(expected);
  }

  @Test
  void theRunCommandHandsEveryDocumentedSettingOnToTheStack() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    String run = pom.substring(pom.indexOf("<id>run</id>"));
    run = run.substring(0, run.indexOf("</profile>"));
    List<String> settings = settingNames();
    assertThat(settings).contains("dir", "mode", "replicas", "demo", "port.ui-gateway");

    for (String setting : settings) {
      if (setting.equals("stop-with-parent")) {
        assertThat(run).contains("<argument>-D" + PREFIX + setting + "=true</argument>");
        continue;
      }
      String property = PREFIX + setting;
      assertThat(run)
          .as("-D%s given to the run command reaches the stack", property)
          .contains("<argument>-D" + property + "=${" + property + "}</argument>");
      assertThat(run)
          .as("%s has a default in the run profile", property)
          .containsPattern(
              "<" + Pattern.quote(property) + ">[^<]+</" + Pattern.quote(property) + ">");
    }
  }

  /**
   * The settings the Javadoc's list names: in each item, the names before its dash (what follows it
   * describes values).
   */
  private static List<String> settingNames() throws IOException {
    String source =
        Files.readString(Path.of("src/main/java/io/agentteams/devstack/DevStack.java"))
            .replaceAll("\\n\\s*\\*\\s*", " ");
    String list = source.substring(source.indexOf("<ul>"), source.indexOf("</ul>"));
    List<String> names = new ArrayList<>();
    for (String item : list.split("<li>")) {
      int dash = item.indexOf(" — ");
      Matcher code = CODE.matcher(dash < 0 ? item : item.substring(0, dash));
      while (code.find()) {
        names.add(code.group(1));
      }
    }
    return names;
  }

  /** The {@code {@code name}}s of the settings list in DevStack's class Javadoc. */
  private static List<String> documentedSettings() throws IOException {
    String source =
        Files.readString(Path.of("src/main/java/io/agentteams/devstack/DevStack.java"))
            .replaceAll("\\n\\s*\\*\\s*", " ");
    String list = source.substring(source.indexOf("<ul>"), source.indexOf("</ul>"));
    List<String> names = new ArrayList<>();
    Matcher code = CODE.matcher(list);
    while (code.find()) {
      names.add(code.group(1));
    }
    return names;
  }

  private static DevStackSettings withProperty(String key, String value) {
    String before = System.getProperty(key);
    System.setProperty(key, value);
    try {
      return DevStackSettings.fromSystemProperties();
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }
}
