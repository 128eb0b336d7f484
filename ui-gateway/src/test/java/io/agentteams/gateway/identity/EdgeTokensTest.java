package io.agentteams.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.testidentity.TestIdentity;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Edge tokens: what the gateway hands its clients, and the refusals a client sees. */
class EdgeTokensTest {

  private static final Duration HOUR = Duration.ofHours(1);
  private final Clock clock = Clock.fixed(Instant.parse("2026-12-07T10:00:00Z"), ZoneOffset.UTC);
  private final Set<String> revoked = new HashSet<>();
  private final EdgeTokens tokens = edgeTokens(clock);

  private EdgeTokens edgeTokens(Clock at) {
    return new EdgeTokens(
        TokenKeys.edge(TestIdentity.edgeKeys(), TestIdentity.EDGE_KEYS),
        CallerTokens.verifying(
            TokenKeys.internalVerification(TestIdentity.dispatchVerificationKeys(), "test keys"),
            CallerTokens.JOB_MEMBER_TYPE,
            GatewayKeys.DISPATCH_ISSUER,
            "agent-teams-api",
            at),
        "agent-teams",
        "agent-teams-api",
        revoked::contains,
        at);
  }

  @Test
  void everyCallerButAServiceReadsBackFromItsToken() {
    List<Caller> callers =
        List.of(
            new Caller.Owner("alice"),
            new Caller.Member("alice", UUID.randomUUID(), "writer", null),
            new Caller.Worker("alice", "agent-7"),
            new Caller.TeamAgent("alice", UUID.randomUUID()));
    callers.forEach(
        caller -> assertThat(tokens.verify(tokens.issue(caller, HOUR))).isEqualTo(caller));
    assertThatThrownBy(() -> tokens.mint(new Caller.Service("scheduler-service"), HOUR))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRevokedTokenIsRefusedAsRevoked() {
    EdgeTokens.Issued issued = tokens.mint(new Caller.Owner("alice"), HOUR);
    assertThat(EdgeTokens.tokenId(issued.token())).isEqualTo(issued.id().toString());

    revoked.add(issued.id().toString());

    assertRefused(issued.token(), EdgeTokens.REVOKED);
  }

  @Test
  void aRevokedTokenIsNotHandedToTheIdentityProvider() {
    String token = tokens.issue(new Caller.Owner("alice"), HOUR);
    revoked.add(EdgeTokens.tokenId(token));
    EdgeAuthenticator authenticator =
        new EdgeAuthenticator(
            tokens,
            new EdgeIdentityProperties(
                null,
                null,
                null,
                "agent-teams",
                "agent-teams-api",
                false,
                HOUR,
                HOUR,
                HOUR,
                new EdgeIdentityProperties.Oidc(
                    URI.create("https://idp.example.test"),
                    URI.create("http://127.0.0.1:1/jwks"),
                    "agent-teams",
                    "sub")));

    assertThatThrownBy(() -> authenticator.authenticate(token).block(Duration.ofSeconds(30)))
        .isInstanceOfSatisfying(
            ProblemException.class, p -> assertThat(p.code()).isEqualTo(EdgeTokens.REVOKED));
  }

  @Test
  void anExpiredTokenIsRefusedAsBefore() {
    String token = tokens.issue(new Caller.Owner("alice"), HOUR);
    EdgeTokens later = edgeTokens(Clock.offset(clock, HOUR.plusMinutes(1)));
    assertThatThrownBy(() -> later.verify(token))
        .isInstanceOfSatisfying(
            ProblemException.class,
            p -> {
              assertThat(p.code()).isEqualTo("unauthenticated");
              assertThat(p.detail()).contains("wrong issuer, audience or expired");
            });
  }

  @Test
  void aJobMemberTokenActsOnlyAsAMemberWithinItsJob() {
    var scheduler =
        CallerTokens.signing(
            TokenKeys.internalSigning(TestIdentity.dispatchSigningKeys(), "test keys"),
            CallerTokens.JOB_MEMBER_TYPE,
            GatewayKeys.DISPATCH_ISSUER,
            "agent-teams-api",
            clock);
    Caller.Member inJob =
        new Caller.Member("alice", UUID.randomUUID(), "writer", UUID.randomUUID());
    assertThat(tokens.verify(scheduler.issue(inJob, HOUR))).isEqualTo(inJob);
    assertRefused(scheduler.issue(new Caller.Owner("alice"), HOUR), "unauthenticated");
  }

  private void assertRefused(String token, String code) {
    assertThatThrownBy(() -> tokens.verify(token))
        .isInstanceOfSatisfying(
            ProblemException.class,
            p -> {
              assertThat(p.kind()).isEqualTo(ProblemException.Kind.UNAUTHENTICATED);
              assertThat(p.code()).isEqualTo(code);
            });
  }
}
