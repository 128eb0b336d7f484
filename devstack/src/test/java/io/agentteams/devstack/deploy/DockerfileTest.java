package io.agentteams.devstack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No image can be built on these machines (no container engine), so the one Dockerfile is checked
 * as far as it can be without one: its instructions (non-root, health check, layers in order), and
 * the layered extraction it runs, performed here on each service's packaged jar, yielding the
 * layers it copies and an application that starts the service and the migration job.
 */
class DockerfileTest {

  private static final Path DOCKERFILE = Path.of("..", "Dockerfile");
  private static final List<String> LAYERS =
      List.of("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");

  @TempDir Path temp;

  @Test
  void runsAsANonRootUserWithAHealthCheckAndTheLayersInOrderOfChange() throws IOException {
    String dockerfile = Files.readString(DOCKERFILE);
    assertThat(dockerfile).containsPattern("(?m)^ARG SERVICE$").containsPattern("(?m)^ARG PORT$");
    Matcher user = Pattern.compile("(?m)^USER (\\S+)$").matcher(dockerfile);
    assertThat(user.find()).as("a USER instruction").isTrue();
    assertThat(user.group(1)).doesNotStartWith("0").doesNotStartWith("root").matches("\\d+:\\d+");
    assertThat(dockerfile.indexOf("USER ")).isLessThan(dockerfile.indexOf("ENTRYPOINT"));
    assertThat(dockerfile)
        .containsPattern("(?m)^HEALTHCHECK .*\\n?.*/actuator/health/readiness")
        .contains("ENTRYPOINT [\"java\", \"-jar\", \"/app/app.jar\"]");
    List<String> copied = new ArrayList<>();
    Matcher copy =
        Pattern.compile("COPY --from=layers /build/extracted/([a-z-]+)/").matcher(dockerfile);
    while (copy.find()) {
      copied.add(copy.group(1));
    }
    assertThat(copied).as("layers, least often changed first").isEqualTo(LAYERS);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "team-service",
        "mailbox-service",
        "task-board-service",
        "scheduler-service",
        "ui-gateway"
      })
  void everyServicesJarCarriesTheLayerIndexAndTheToolsTheExtractionNeeds(String service)
      throws IOException {
    try (JarFile jar = new JarFile(packagedJar(service).toFile())) {
      assertThat(jar.getEntry("BOOT-INF/layers.idx")).as("layer index").isNotNull();
      assertThat(jar.stream().map(e -> e.getName()))
          .as("jarmode tools")
          .anyMatch(name -> name.matches("BOOT-INF/lib/spring-boot-jarmode-tools-.*\\.jar"));
    }
  }

  /** The extraction itself, on one service (every jar is packaged by the same plugin setup). */
  @Test
  void theLayeredExtractionYieldsTheCopiedLayersAndARunnableApplication() throws Exception {
    String service = "team-service";
    Path jar = packagedJar(service);
    Path build = Files.createDirectories(temp.resolve(service));
    Files.copy(jar, build.resolve("app.jar"));
    Matcher run =
        Pattern.compile("(?m)^RUN (java -Djarmode=tools .*)$")
            .matcher(Files.readString(DOCKERFILE));
    assertThat(run.find()).isTrue();
    List<String> command = new ArrayList<>(List.of(run.group(1).split(" ")));
    command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Process process =
        new ProcessBuilder(command).directory(build.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();

    // The image's /app: every layer copied over the other, in the Dockerfile's order.
    Path app = Files.createDirectories(temp.resolve(service + "-app"));
    for (String layer : LAYERS) {
      Path from = build.resolve("extracted").resolve(layer);
      assertThat(from).as("layer %s", layer).isDirectory();
      try (Stream<Path> files = Files.walk(from)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          Path target = app.resolve(from.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(target);
          } else {
            Files.copy(file, target);
          }
        }
      }
    }
    // The third-party dependencies (the large layer) hold none of this build's own modules: those
    // change with the code and travel in the application's layer.
    try (Stream<Path> dependencies = Files.walk(build.resolve("extracted/dependencies"))) {
      assertThat(dependencies.map(p -> p.getFileName().toString()))
          .hasSizeGreaterThan(50)
          .noneMatch(name -> name.startsWith("platform-") || name.startsWith(service));
    }
    try (Stream<Path> application = Files.walk(build.resolve("extracted/application"))) {
      assertThat(application.map(p -> p.getFileName().toString()))
          .contains("app.jar")
          .anyMatch(name -> name.startsWith("platform-core-"));
    }
    try (JarFile application = new JarFile(app.resolve("app.jar").toFile())) {
      String mainClass = application.getManifest().getMainAttributes().getValue("Main-Class");
      String classPath = application.getManifest().getMainAttributes().getValue("Class-Path");
      assertThat(mainClass).as("java -jar /app/app.jar starts the service").isNotBlank();
      for (String entry : classPath.split(" ")) {
        assertThat(app.resolve(entry)).as("class path entry %s", entry).exists();
      }
      // The chart's migration Job runs java -cp /app/app.jar <job>: the class loads from there.
      List<URL> urls = new ArrayList<>(List.of(app.resolve("app.jar").toUri().toURL()));
      for (String entry : classPath.split(" ")) {
        urls.add(app.resolve(entry).toUri().toURL());
      }
      try (URLClassLoader image = new URLClassLoader(urls.toArray(URL[]::new), null)) {
        assertThat(image.loadClass(mainClass)).isNotNull();
        assertThat(image.loadClass("io.agentteams.platform.schema.SchemaMigrationJob")).isNotNull();
      }
    }
  }

  private static Path packagedJar(String service) throws IOException {
    try (Stream<Path> files = Files.list(Path.of("..", service, "target"))) {
      return files
          .filter(
              f -> f.getFileName().toString().matches(Pattern.quote(service) + "-.*-exec\\.jar"))
          .findFirst()
          .orElseThrow(
              () ->
                  new AssertionError(
                      "no packaged jar of " + service + ": run the tests with ./mvnw verify"));
    }
  }
}
