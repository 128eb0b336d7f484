package io.agentteams.devstack.a2a;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An A2A 1.0 agent served by the official A2A JS SDK ({@code src/test/a2a/agent.mjs}), run with
 * node on 127.0.0.1: one agent whose card says it streams and one whose card says it does not. Its
 * log says which methods were called, which messages arrived and which tasks were cancelled.
 */
public final class A2aPeer implements AutoCloseable {

  private static final Path DIRECTORY = Path.of("src/test/a2a");

  private final Process node;
  private final int streamingPort;
  private final int pollingPort;
  private final HttpClient http = HttpClient.newHttpClient();
  private final JsonMapper json = JsonMapper.builder().build();

  public A2aPeer() throws IOException, InterruptedException {
    if (!Files.isDirectory(DIRECTORY.resolve("node_modules/@a2a-js/sdk"))) {
      throw new IllegalStateException(
          "the A2A JS SDK is missing: run bin/test (or npm ci in devstack/src/test/a2a) first");
    }
    node =
        new ProcessBuilder("node", "agent.mjs")
            .directory(DIRECTORY.toFile())
            .redirectErrorStream(true)
            .start();
    BufferedReader output =
        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                String line;
                while ((line = output.readLine()) != null) {
                  if (line.startsWith("ready ")) {
                    return line;
                  }
                }
                throw new IllegalStateException("the A2A agent exited before it was ready");
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    String line;
    try {
      line = ready.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      node.destroyForcibly();
      throw new IllegalStateException("the A2A agent did not start", e);
    }
    String[] ports = line.split(" ");
    streamingPort = Integer.parseInt(ports[1]);
    pollingPort = Integer.parseInt(ports[2]);
    // Keep draining its output so the process never blocks on a full pipe.
    Thread drain =
        new Thread(
            () -> {
              try {
                while (output.readLine() != null) {
                  // discarded
                }
              } catch (IOException closed) {
                // the process ended
              }
            },
            "a2a-peer-output");
    drain.setDaemon(true);
    drain.start();
  }

  /** The base URL of the agent whose card says it streams. */
  public String streamingUrl() {
    return "http://127.0.0.1:" + streamingPort;
  }

  /** The base URL of the agent whose card says it does not stream. */
  public String pollingUrl() {
    return "http://127.0.0.1:" + pollingPort;
  }

  /**
   * The agent's log: {@code calls}, {@code received}, {@code cancelled} and {@code usageWritten}.
   */
  JsonNode log() throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(streamingUrl() + "/log"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return json.readTree(response.body());
  }

  /** Lets a task waiting at a gate complete. */
  void release(String taskId) throws IOException, InterruptedException {
    http.send(
        HttpRequest.newBuilder(
                URI.create(
                    streamingUrl()
                        + "/release?task="
                        + java.net.URLEncoder.encode(taskId, StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.discarding());
  }

  @Override
  public void close() {
    node.destroy();
    try {
      if (!node.waitFor(10, TimeUnit.SECONDS)) {
        node.destroyForcibly();
      }
    } catch (InterruptedException e) {
      node.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
