package io.agentteams.sdk.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentteams.sdk.TokenSupplier;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.internal.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The board is read a page at a time, following each page's cursor to the last. */
class TaskBoardTest {

  private static final UUID TEAM = UUID.fromString("0190f4a2-0000-7000-8000-000000000001");

  private HttpServer server;
  private final List<String> queries = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/api/v1/teams/" + TEAM + "/tasks",
        exchange -> {
          String query = exchange.getRequestURI().getRawQuery();
          queries.add(query == null ? "" : query);
          if (query != null && query.contains("cursor=after-2")) {
            answer(exchange, "{\"items\":[" + task(3) + "],\"next_cursor\":null}");
          } else if (query != null && query.contains("cursor=after-1")) {
            answer(exchange, "{\"items\":[" + task(2) + "],\"next_cursor\":\"after-2\"}");
          } else {
            answer(exchange, "{\"items\":[" + task(1) + "],\"next_cursor\":\"after-1\"}");
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void listFollowsEveryPageWithTheSameFilter() {
    TaskBoard board = new TaskBoard(transport());

    List<Task> tasks = board.list(TEAM, "ready", null);

    assertThat(tasks).extracting(Task::id).containsExactly(1L, 2L, 3L);
    assertThat(queries)
        .containsExactly(
            "status=ready", "status=ready&cursor=after-1", "status=ready&cursor=after-2");
  }

  @Test
  void aPageIsOneRequestWithItsSizeAndCursor() {
    TaskPage page = new TaskBoard(transport()).page(TEAM, null, null, true, 1, "after-1");

    assertThat(page.items()).extracting(Task::id).containsExactly(2L);
    assertThat(page.nextCursor()).isEqualTo("after-2");
    assertThat(queries).containsExactly("include_deleted=true&limit=1&cursor=after-1");
  }

  private HttpTransport transport() {
    return new HttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
        HttpClient.newHttpClient(),
        TokenSupplier.of("t"),
        Json.mapper(),
        Duration.ofSeconds(5));
  }

  private static String task(long id) {
    return "{\"id\":"
        + id
        + ",\"title\":\"Task "
        + id
        + "\",\"status\":\"ready\",\"dependencies\":[],\"write_scopes\":[],\"percent\":0,"
        + "\"heartbeat_count\":0,\"deleted\":false,\"revision\":1}";
  }

  private static void answer(HttpExchange exchange, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
