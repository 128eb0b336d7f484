package io.agentteams.gateway.headers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class TrustedProxiesTest {

  private final TrustedProxies proxies =
      new TrustedProxies(
          new ForwardedHeadersProperties(List.of("10.0.0.0/8", "fd00::/8"), Duration.ofDays(1)));

  private static ServerHttpRequest from(String peer) {
    return MockServerHttpRequest.get("http://gateway.internal:8080/console/signin")
        .remoteAddress(new InetSocketAddress(peer, 43210))
        .header("X-Forwarded-Proto", "https")
        .header("X-Forwarded-Host", "console.example")
        .header("X-Forwarded-Port", "443")
        .build();
  }

  @Test
  void aTrustedProxySaysTheRequestCameOverTls() {
    ServerHttpRequest applied = proxies.apply(from("10.42.0.7"));
    assertThat(applied.getURI().getScheme()).isEqualTo("https");
    assertThat(applied.getURI().getHost()).isEqualTo("console.example");
    assertThat(applied.getHeaders().containsHeader("X-Forwarded-Proto")).isFalse();
  }

  @Test
  void theSameHeadersFromAnUntrustedClientChangeNothingAndAreRemoved() {
    ServerHttpRequest applied = proxies.apply(from("192.168.1.20"));
    assertThat(applied.getURI().getScheme()).isEqualTo("http");
    assertThat(applied.getURI().getHost()).isEqualTo("gateway.internal");
    assertThat(applied.getHeaders().containsHeader("X-Forwarded-Proto")).isFalse();
    assertThat(applied.getHeaders().containsHeader("X-Forwarded-Host")).isFalse();
  }

  @Test
  void byDefaultNoProxyIsTrusted() {
    TrustedProxies none =
        new TrustedProxies(new ForwardedHeadersProperties(List.of(), Duration.ofDays(1)));
    assertThat(none.apply(from("10.42.0.7")).getURI().getScheme()).isEqualTo("http");
  }

  @Test
  void hostNamesAndMalformedRangesAreRefusedAtStartUp() {
    for (String bad : List.of("ingress.local", "10.0.0.0/33", "10.0.0.0/x", "")) {
      assertThatThrownBy(() -> new ForwardedHeadersProperties(List.of(bad), Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void hstsCarriesTheConfiguredMaxAge() {
    assertThat(new ForwardedHeadersProperties(List.of(), Duration.ofDays(1)).hsts())
        .isEqualTo("max-age=86400; includeSubDomains");
  }
}
