package io.agentteams.gateway.limits;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;

/**
 * Marks the calls this gateway makes back through its own public API on a client's behalf (the MCP
 * adapter's {@code tools/call}), so that the edge limits count the client's request once, not once
 * for the MCP request and again for the REST call it turns into.
 *
 * <p>The mark is a random value made when the gateway starts and known only to this process; a
 * request is a loop-back call only if it carries that value and comes from a loopback address. The
 * header is removed from every request at the edge, so it never reaches a service, and a client
 * that sends one of its own is counted like any other request.
 */
@Component
public class LoopbackCalls {

  /** The header that carries the mark. */
  public static final String HEADER = "X-Agent-Teams-Loopback";

  private final byte[] mark;

  public LoopbackCalls() {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    this.mark =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(random)
            .getBytes(StandardCharsets.US_ASCII);
  }

  /** The header value for a call back through this gateway. */
  public String mark() {
    return new String(mark, StandardCharsets.US_ASCII);
  }

  /** Whether the request is one of this gateway's own calls back through its public API. */
  public boolean isLoopbackCall(ServerHttpRequest request) {
    @Nullable String value = request.getHeaders().getFirst(HEADER);
    @Nullable InetSocketAddress remote = request.getRemoteAddress();
    return value != null
        && remote != null
        && remote.getAddress() != null
        && remote.getAddress().isLoopbackAddress()
        && MessageDigest.isEqual(mark, value.getBytes(StandardCharsets.US_ASCII));
  }
}
