package io.agentteams.gateway.headers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;

class SecurityHeadersFilterTest {

  private final SecurityHeadersFilter filter = new SecurityHeadersFilter();

  @Test
  void overTlsTheResponseAlsoCarriesHsts() {
    HttpHeaders headers = answer(MockServerHttpRequest.get("https://at.example/api/v1/teams"));
    assertThat(headers.getFirst("Strict-Transport-Security")).isEqualTo(SecurityHeadersFilter.HSTS);
    assertThat(headers.getFirst("X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(headers.getFirst("Content-Security-Policy"))
        .isEqualTo(SecurityHeadersFilter.API_POLICY);
  }

  @Test
  void plainHttpGetsNoHstsAndTokenAnswersAreNeverStored() {
    HttpHeaders headers =
        answer(MockServerHttpRequest.post("http://127.0.0.1/api/v1/agents/a-1/tokens"));
    assertThat(headers.containsHeader("Strict-Transport-Security")).isFalse();
    assertThat(headers.getFirst(HttpHeaders.CACHE_CONTROL)).isEqualTo("no-store");
    assertThat(
            answer(MockServerHttpRequest.get("http://127.0.0.1/api/v1/teams"))
                .containsHeader(HttpHeaders.CACHE_CONTROL))
        .isFalse();
  }

  @Test
  void theConsolesPagesAreLeftToTheConsolesOwnPolicy() {
    // The console's security chain writes its policy after this filter, and only where none is.
    HttpHeaders headers = answer(MockServerHttpRequest.get("http://127.0.0.1/console/agents"));
    assertThat(headers.getFirst("X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(headers.containsHeader("Content-Security-Policy")).isFalse();
    assertThat(headers.containsHeader("X-Frame-Options")).isFalse();
    assertThat(
            answer(MockServerHttpRequest.get("http://127.0.0.1/consoles"))
                .getFirst("Content-Security-Policy"))
        .isEqualTo(SecurityHeadersFilter.API_POLICY);
  }

  @Test
  void aPolicySetForAPageIsKept() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.get("http://127.0.0.1/console/teams"));
    filter
        .filter(
            exchange,
            e -> {
              e.getResponse().getHeaders().set("Content-Security-Policy", "default-src 'self'");
              e.getResponse().getHeaders().set("Referrer-Policy", "same-origin");
              return e.getResponse().setComplete();
            })
        .block();
    assertThat(exchange.getResponse().getHeaders().getFirst("Content-Security-Policy"))
        .isEqualTo("default-src 'self'");
    assertThat(exchange.getResponse().getHeaders().getFirst("Referrer-Policy"))
        .isEqualTo("same-origin");
    assertThat(exchange.getResponse().getHeaders().getFirst("X-Content-Type-Options"))
        .isEqualTo("nosniff");
  }

  private HttpHeaders answer(MockServerHttpRequest.BaseBuilder<?> request) {
    MockServerWebExchange exchange = MockServerWebExchange.from(request);
    filter.filter(exchange, e -> e.getResponse().setComplete()).then(Mono.empty()).block();
    return exchange.getResponse().getHeaders();
  }
}
