package io.agentteams.platform.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.test.RealInfrastructure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * A service's HTTP server keeps reading a keep-alive connection whatever order its answers finish
 * in. A client that reuses a connection may send its next request before the server has finished
 * with the previous one (the answer is on the wire, the server's bookkeeping not yet done); the
 * server queues it. With Reactor Netty 1.3.6, when a queued request was answered at once, the
 * server stopped reading that connection: the client's next request waited unread until the client
 * gave up, which tests saw as calls unanswered for 30 s and a loaded machine saw about once in a
 * thousand calls.
 */
@RealInfrastructure
@SpringBootTest(
    classes = KeepAliveIntegrationTest.SampleService.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.application.name=sample-service")
class KeepAliveIntegrationTest {

  /** How long a read may wait for an answer before the test fails: far past any real answer. */
  private static final Duration ANSWER = Duration.ofSeconds(20);

  /** TEST ONLY: a fresh gateway key's public half, as every service must be given. */
  @DynamicPropertySource
  static void keys(DynamicPropertyRegistry registry) {
    registry.add(
        "agentteams.identity.internal-verification-keys",
        () ->
            TokenKeys.publicSet(
                TokenKeys.internalSigning(TokenKeys.generateInternalSigning(), "test")));
  }

  @SpringBootApplication
  @Import(Samples.class)
  static class SampleService {}

  @RestController
  public static class Samples {

    @GetMapping("/samples/slow")
    public Mono<String> slow() {
      return Mono.delay(Duration.ofMillis(50)).thenReturn("slow");
    }

    @GetMapping("/samples/fast")
    public Mono<String> fast() {
      return Mono.just("fast");
    }
  }

  @LocalServerPort int port;

  @Test
  void aRequestQueuedBehindAnotherAndAnsweredAtOnceLeavesTheConnectionReadable()
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) ANSWER.toMillis());
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();

      // Two requests in one write: the second is queued while the first waits 50 ms.
      out.write(
          (request("/samples/slow") + request("/samples/fast"))
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in)).endsWith("slow");
      assertThat(readResponse(in)).endsWith("fast");

      // The same connection, once both are answered: the server must still read it.
      out.write(request("/samples/fast").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in)).startsWith("HTTP/1.1 200").endsWith("fast");
    }
  }

  private static String request(String path) {
    return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n";
  }

  /**
   * One response with a {@code Content-Length} body, as text; a read past {@link #ANSWER} fails.
   */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed after " + head);
      }
      head.write(b);
    }
    String headers = head.toString(StandardCharsets.US_ASCII);
    int length = 0;
    for (String line : headers.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    return headers + new String(body, StandardCharsets.UTF_8);
  }
}
