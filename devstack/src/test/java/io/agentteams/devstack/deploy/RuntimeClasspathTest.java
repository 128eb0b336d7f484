package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The run command starts the stack on the runtime class path, which the tests never see (theirs
 * adds every test-scoped dependency). A dependency the services need at run time but that is
 * declared test-scoped here hides from the run command alone — as snakeyaml once did, so no service
 * could read its configuration. This loads the launcher, every service and its YAML configuration
 * from exactly the run command's class path.
 */
class RuntimeClasspathTest {

  private static final Map<String, String> SERVICES =
      Map.of(
          "team-service.yml", "io.agentteams.team.TeamApplication",
          "mailbox-service.yml", "io.agentteams.mailbox.MailboxApplication",
          "task-board-service.yml", "io.agentteams.taskboard.TaskBoardApplication",
          "scheduler-service.yml", "io.agentteams.scheduler.SchedulerApplication",
          "ui-gateway.yml", "io.agentteams.gateway.GatewayApplication");

  @Test
  void theLauncherEveryServiceAndTheirYamlConfigurationLoadFromTheRunCommandsClassPath()
      throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(Path.of("target/classes").toUri().toURL());
    for (String entry :
        Files.readString(Path.of("target/runtime-classpath.txt"))
            .trim()
            .split(java.io.File.pathSeparator)) {
      urls.add(Path.of(entry).toUri().toURL());
    }
    try (URLClassLoader runtime =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      assertThat(runtime.loadClass("io.agentteams.devstack.DevStack")).isNotNull();
      Class<?> yaml = runtime.loadClass("org.yaml.snakeyaml.Yaml");
      Object parser = yaml.getConstructor().newInstance();
      for (var service : SERVICES.entrySet()) {
        assertThat(runtime.loadClass(service.getValue())).isNotNull();
        try (InputStream config = runtime.getResourceAsStream(service.getKey())) {
          assertThat(config).as(service.getKey()).isNotNull();
          Object parsed = yaml.getMethod("load", InputStream.class).invoke(parser, config);
          assertThat(parsed).as(service.getKey()).isInstanceOf(Map.class);
        }
      }
    }
  }
}
