package io.agentteams.platform.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.ProblemException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CallerTokensTest {

  private static final String SECRET = "a-test-secret-that-is-long-enough-0123456789";
  private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
  private final CallerTokens tokens = new CallerTokens(SECRET, "gateway", "internal", clock);

  static java.util.List<Caller> callers() {
    return java.util.List.of(
        new Caller.Owner("alice"),
        new Caller.Member("alice", UUID.randomUUID(), "researcher", UUID.randomUUID()),
        new Caller.Member("alice", UUID.randomUUID(), "writer", null),
        new Caller.Worker("alice", "agent-7"),
        new Caller.TeamAgent("alice", UUID.randomUUID()),
        new Caller.Service("scheduler-service"));
  }

  @ParameterizedTest
  @MethodSource("callers")
  void carriesEveryKindOfCallerUnchanged(Caller caller) {
    assertThat(tokens.verify(tokens.issue(caller, Duration.ofMinutes(2)))).isEqualTo(caller);
  }

  @Test
  void refusesATokenSignedWithAnotherKey() {
    var other =
        new CallerTokens(
            "another-secret-that-is-long-enough-987654321", "gateway", "internal", clock);
    String forged = other.issue(new Caller.Owner("mallory"), Duration.ofMinutes(2));
    assertUnauthenticated(forged);
  }

  @Test
  void refusesATokenForAnotherAudienceOrIssuer() {
    var publicTokens = new CallerTokens(SECRET, "gateway", "public", clock);
    assertUnauthenticated(publicTokens.issue(new Caller.Owner("alice"), Duration.ofMinutes(2)));
    var otherIssuer = new CallerTokens(SECRET, "someone-else", "internal", clock);
    assertUnauthenticated(otherIssuer.issue(new Caller.Owner("alice"), Duration.ofMinutes(2)));
  }

  @Test
  void refusesAnExpiredToken() {
    var past =
        new CallerTokens(
            SECRET, "gateway", "internal", Clock.offset(clock, Duration.ofMinutes(-10)));
    assertUnauthenticated(past.issue(new Caller.Owner("alice"), Duration.ofMinutes(2)));
  }

  @Test
  void refusesGarbageAndTamperedTokens() {
    assertUnauthenticated(null);
    assertUnauthenticated("");
    assertUnauthenticated("not.a.jwt");
    String token = tokens.issue(new Caller.Owner("alice"), Duration.ofMinutes(2));
    String[] parts = token.split("\\.");
    String tampered =
        parts[0]
            + "."
            + java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                    new String(java.util.Base64.getUrlDecoder().decode(parts[1]))
                        .replace("alice", "mallo")
                        .getBytes())
            + "."
            + parts[2];
    assertUnauthenticated(tampered);
  }

  @Test
  void refusesShortSecrets() {
    assertThatThrownBy(() -> new CallerTokens("short", "gateway", "internal", clock))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private void assertUnauthenticated(String token) {
    assertThatThrownBy(() -> tokens.verify(token))
        .isInstanceOfSatisfying(
            ProblemException.class,
            e -> assertThat(e.kind()).isEqualTo(ProblemException.Kind.UNAUTHENTICATED));
  }
}
