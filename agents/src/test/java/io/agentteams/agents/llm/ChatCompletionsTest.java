package io.agentteams.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a call reports of the server's usage: prompt and completion tokens, and the model the server
 * says answered, or the one asked for when the server names none or a name the scheduler's ledger
 * would refuse.
 */
class ChatCompletionsTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final AtomicReference<String> model = new AtomicReference<>();
  private HttpServer server;
  private ChatCompletions chat;

  @BeforeEach
  void serve() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String named =
                model.get() == null ? "" : ",\"model\":" + JSON.writeValueAsString(model.get());
            byte[] body =
                ("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},"
                        + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":30,"
                        + "\"completion_tokens\":12,\"total_tokens\":42}"
                        + named
                        + "}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
          }
        });
    server.start();
    URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    chat =
        new ChatCompletions(
            LlmSettings.of(base, "asked-for", null), HttpClient.newHttpClient(), JSON);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void theReplyCarriesTheSplitAndTheModelTheServerNamed() throws Exception {
    model.set("served-2026");
    ChatCompletions.Reply reply = call();
    assertThat(reply.promptTokens()).isEqualTo(30);
    assertThat(reply.completionTokens()).isEqualTo(12);
    assertThat(reply.totalTokens()).isEqualTo(42);
    assertThat(reply.model()).isEqualTo("served-2026");
  }

  @Test
  void aServerNamingNoModelOrAnUnprintableOneIsReportedAsTheModelAskedFor() throws Exception {
    model.set(null);
    assertThat(call().model()).isEqualTo("asked-for");
    model.set("bell\u0007");
    assertThat(call().model()).isEqualTo("asked-for");
    model.set("m".repeat(129));
    assertThat(call().model()).isEqualTo("asked-for");
  }

  private ChatCompletions.Reply call() throws Exception {
    return chat.complete(JSON.createArrayNode(), JSON.createArrayNode(), 100);
  }
}
