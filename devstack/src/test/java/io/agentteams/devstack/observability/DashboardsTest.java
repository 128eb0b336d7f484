package io.agentteams.devstack.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The dashboards are valid for the Grafana schema version they declare: each is type-checked, as an
 * object literal (so an unknown or misspelt field fails too), against the dashboard types Grafana
 * publishes for that version ({@code @grafana/schema}, pinned in src/test/grafana to the Grafana
 * that compose runs). And each panel queries Prometheus within the grid, with ids that are unique.
 */
class DashboardsTest {

  private static final Path GRAFANA = Path.of("src", "test", "grafana").toAbsolutePath();

  @TempDir Path temp;

  @Test
  void everyDashboardDeclaresTheSchemaVersionOfTheGrafanaTypesAndTypeChecksAgainstThem()
      throws Exception {
    int version =
        Integer.parseInt(
            node(
                    "-e",
                    "process.stdout.write(String(require('@grafana/schema').defaultDashboard.schemaVersion))")
                .trim());
    StringBuilder source = new StringBuilder("import type { Dashboard } from '@grafana/schema';\n");
    List<Path> files = Dashboards.files();
    assertThat(files).hasSizeGreaterThanOrEqualTo(6);
    for (int i = 0; i < files.size(); i++) {
      assertThat(Dashboards.read(files.get(i)).path("schemaVersion").asInt())
          .as("%s declares the schema version of Grafana's types", files.get(i).getFileName())
          .isEqualTo(version);
      source
          .append("// ")
          .append(files.get(i).getFileName())
          .append("\nexport const dashboard")
          .append(i)
          .append(": Dashboard = ")
          .append(Files.readString(files.get(i)).strip())
          .append(";\n");
    }
    Files.writeString(temp.resolve("dashboards.ts"), source);
    Files.writeString(
        temp.resolve("tsconfig.json"),
        """
        {"compilerOptions": {"strict": true, "noEmit": true, "skipLibCheck": true, "types": [],
          "module": "commonjs", "moduleResolution": "node", "target": "es2020", "baseUrl": ".",
          "paths": {"@grafana/schema": ["%s"]}},
         "files": ["dashboards.ts"]}
        """
            .formatted(
                GRAFANA.resolve("node_modules/@grafana/schema").toString().replace("\\", "/")));
    String tsc = GRAFANA.resolve("node_modules/typescript/bin/tsc").toString();
    String errors = run(temp, "node", tsc, "-p", "tsconfig.json");
    assertThat(errors).as("TypeScript's verdict").isEmpty();
  }

  @Test
  void everyPanelQueriesPrometheusInsideTheGridWithUniqueIds() {
    Set<String> uids = new HashSet<>();
    for (Path file : Dashboards.files()) {
      JsonNode dashboard = Dashboards.read(file);
      String name = file.getFileName().toString();
      assertThat(uids.add(dashboard.path("uid").asString())).as("%s uid unique", name).isTrue();
      assertThat(dashboard.path("templating").path("list").toString())
          .as("%s lets the viewer pick the Prometheus data source", name)
          .contains("\"name\":\"datasource\"", "\"type\":\"datasource\"");
      Set<Integer> ids = new HashSet<>();
      List<int[]> cells = new ArrayList<>();
      for (JsonNode panel : dashboard.path("panels")) {
        String title = name + " / " + panel.path("title").asString();
        assertThat(ids.add(panel.path("id").asInt())).as("%s id unique", title).isTrue();
        assertThat(panel.path("description").asString())
            .as("%s says what it shows", title)
            .isNotBlank();
        JsonNode grid = panel.path("gridPos");
        int x = grid.path("x").asInt();
        int y = grid.path("y").asInt();
        int w = grid.path("w").asInt();
        int h = grid.path("h").asInt();
        assertThat(x + w).as("%s fits the 24 columns", title).isLessThanOrEqualTo(24);
        for (int[] other : cells) {
          boolean overlaps =
              x < other[0] + other[2]
                  && other[0] < x + w
                  && y < other[1] + other[3]
                  && other[1] < y + h;
          assertThat(overlaps).as("%s overlaps another panel", title).isFalse();
        }
        cells.add(new int[] {x, y, w, h});
        assertThat(panel.path("targets")).as("%s has queries", title).isNotEmpty();
        Set<String> refIds = new HashSet<>();
        for (JsonNode target : panel.path("targets")) {
          assertThat(refIds.add(target.path("refId").asString())).as("%s refId", title).isTrue();
          assertThat(target.path("expr").asString()).as("%s query", title).isNotBlank();
          assertThat(target.path("datasource").path("uid").asString())
              .as("%s queries the chosen data source", title)
              .isEqualTo("${datasource}");
        }
      }
    }
  }

  private static String node(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("node"));
    command.addAll(List.of(args));
    return run(GRAFANA, command.toArray(String[]::new));
  }

  /** Runs a command (node and the npm packages are installed by bin/test); its output. */
  private static String run(Path directory, String... command) throws Exception {
    Process process =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s finished", List.of(command)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
