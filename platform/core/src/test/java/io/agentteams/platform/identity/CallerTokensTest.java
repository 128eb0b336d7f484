package io.agentteams.platform.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.test.TestClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CallerTokensTest {

  private static final String SETTING = "test.keys";
  private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
  private final String signingSet = TokenKeys.generateInternalSigning();
  private final List<ECKey> signingKeys = TokenKeys.internalSigning(signingSet, SETTING);
  private final CallerTokens gateway =
      CallerTokens.signing(signingKeys, "gateway", "internal", clock);
  private final CallerTokens service =
      CallerTokens.verifying(
          TokenKeys.internalVerification(TokenKeys.publicSet(signingKeys), SETTING),
          "gateway",
          "internal",
          clock);

  static List<Caller> callers() {
    return List.of(
        new Caller.Owner("alice"),
        new Caller.Member("alice", UUID.randomUUID(), "researcher", UUID.randomUUID()),
        new Caller.Member("alice", UUID.randomUUID(), "researcher", UUID.randomUUID(), 3),
        new Caller.Member("alice", UUID.randomUUID(), "writer", null),
        new Caller.Worker("alice", "agent-7"),
        new Caller.TeamAgent("alice", UUID.randomUUID()),
        new Caller.Service("scheduler-service"));
  }

  @ParameterizedTest
  @MethodSource("callers")
  void aServiceReadsEveryKindOfCallerTheGatewaySigned(Caller caller) {
    assertThat(service.verify(gateway.issue(caller, Duration.ofMinutes(2)))).isEqualTo(caller);
  }

  @Test
  void aMemberIsUnderALeaseOnlyWithinAJob() {
    assertThatThrownBy(() -> new Caller.Member("alice", UUID.randomUUID(), "writer", null, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static List<String[]> servicePairs() {
    List<String[]> pairs = new java.util.ArrayList<>();
    for (String from : InternalAudiences.ALL) {
      for (String to : InternalAudiences.ALL) {
        pairs.add(new String[] {from, to});
      }
    }
    return pairs;
  }

  /** A token the gateway signed for one service is accepted there and refused by every other. */
  @ParameterizedTest
  @MethodSource("servicePairs")
  void aTokenForOneServiceIsRefusedByEveryOtherService(String mintedFor, String presentedTo) {
    String token =
        CallerTokens.signing(signingKeys, "gateway", mintedFor, clock)
            .issue(new Caller.Owner("alice"), Duration.ofMinutes(2));
    CallerTokens receiver =
        CallerTokens.verifying(
            TokenKeys.internalVerification(TokenKeys.publicSet(signingKeys), SETTING),
            "gateway",
            presentedTo,
            clock);
    if (mintedFor.equals(presentedTo)) {
      assertThat(receiver.verify(token)).isEqualTo(new Caller.Owner("alice"));
    } else {
      assertThatThrownBy(() -> receiver.verify(token))
          .isInstanceOfSatisfying(
              ProblemException.class,
              problem -> assertThat(problem.detail()).contains("wrong audience"));
    }
  }

  @Test
  void aServiceHoldsNothingThatSigns() {
    assertThat(service.canSign()).isFalse();
    assertThatThrownBy(() -> service.issue(new Caller.Owner("mallory"), Duration.ofMinutes(1)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void refusesATokenSignedWithAnotherKeyEvenUnderTheSameKeyId() {
    ECKey known = signingKeys.get(0);
    String otherSet = TokenKeys.generateInternalSigning();
    ECKey other = TokenKeys.internalSigning(otherSet, SETTING).get(0);
    ECKey impostor =
        new ECKey.Builder(other).keyID(known.getKeyID()).build(); // claims the gateway's kid
    var forger = CallerTokens.signing(List.of(impostor), "gateway", "internal", clock);
    assertRefused(forger.issue(new Caller.Owner("mallory"), Duration.ofMinutes(1)));
    var stranger = CallerTokens.signing(List.of(other), "gateway", "internal", clock);
    assertRefused(stranger.issue(new Caller.Owner("mallory"), Duration.ofMinutes(1)));
  }

  @Test
  void refusesHmacKeyedWithThePublicKeyAndUnsignedTokens() throws Exception {
    JWTClaimsSet claims =
        CallerClaims.write(
                new Caller.Owner("mallory"),
                new JWTClaimsSet.Builder()
                    .issuer("gateway")
                    .audience("internal")
                    .expirationTime(Date.from(clock.instant().plusSeconds(60))))
            .build();
    // Everything a service holds is the public key: an HMAC "signed" with its JSON is refused.
    byte[] publicMaterial =
        TokenKeys.publicSet(signingKeys).repeat(2).getBytes(StandardCharsets.UTF_8);
    SignedJWT hmac =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256)
                .keyID(signingKeys.get(0).getKeyID())
                .type(CallerTokens.TYPE)
                .build(),
            claims);
    hmac.sign(new MACSigner(publicMaterial));
    assertRefused(hmac.serialize());
    assertRefused(new PlainJWT(claims).serialize());
  }

  @Test
  void refusesAJobMemberTokenOfTheSameKeys() {
    var jobTokens =
        CallerTokens.signing(
            signingKeys, CallerTokens.JOB_MEMBER_TYPE, "gateway", "internal", clock);
    assertRefused(
        jobTokens.issue(
            new Caller.Member("alice", UUID.randomUUID(), "w", UUID.randomUUID()),
            Duration.ofMinutes(1)));
  }

  @Test
  void refusesTheWrongIssuerAudienceOrAnExpiredToken() {
    assertRefused(
        CallerTokens.signing(signingKeys, "someone-else", "internal", clock)
            .issue(new Caller.Owner("alice"), Duration.ofMinutes(1)));
    assertRefused(
        CallerTokens.signing(signingKeys, "gateway", "public", clock)
            .issue(new Caller.Owner("alice"), Duration.ofMinutes(1)));
    var earlier =
        CallerTokens.signing(
            signingKeys,
            "gateway",
            "internal",
            Clock.fixed(clock.instant().minus(Duration.ofMinutes(10)), ZoneOffset.UTC));
    assertRefused(earlier.issue(new Caller.Owner("alice"), Duration.ofMinutes(2)));
    assertRefused(null);
    assertRefused("not.a.token");
  }

  @Test
  void rotationAcceptsBothKeysWhileTheNewOneSigns() {
    ECKey old = signingKeys.get(0);
    ECKey fresh = TokenKeys.internalSigning(TokenKeys.generateInternalSigning(), SETTING).get(0);
    var oldGateway = CallerTokens.signing(List.of(old), "gateway", "internal", clock);
    var newGateway = CallerTokens.signing(List.of(fresh, old), "gateway", "internal", clock);
    var rotating =
        CallerTokens.verifying(
            TokenKeys.internalVerification(TokenKeys.publicSet(List.of(fresh, old)), SETTING),
            "gateway",
            "internal",
            clock);
    Caller alice = new Caller.Owner("alice");
    assertThat(rotating.verify(oldGateway.issue(alice, Duration.ofMinutes(1)))).isEqualTo(alice);
    assertThat(rotating.verify(newGateway.issue(alice, Duration.ofMinutes(1)))).isEqualTo(alice);
    // A service not yet given the new key refuses what it signs.
    assertRefused(newGateway.issue(alice, Duration.ofMinutes(1)));
  }

  @Test
  void keySetsFailClosedNamingTheirSetting() {
    assertThatThrownBy(() -> TokenKeys.internalVerification(null, "agentteams.x.keys"))
        .isInstanceOf(MissingSettingException.class)
        .hasMessageContaining("agentteams.x.keys")
        .hasMessageContaining("AGENTTEAMS_X_KEYS");
    assertThatThrownBy(() -> TokenKeys.internalVerification(" ", "agentteams.x.keys"))
        .isInstanceOf(MissingSettingException.class);
    // A service given private material could sign: refused.
    assertThatThrownBy(() -> TokenKeys.internalVerification(signingSet, "agentteams.x.keys"))
        .isInstanceOf(TokenKeys.InvalidKeysException.class)
        .hasMessageContaining("private");
    assertThatThrownBy(() -> TokenKeys.internalSigning("{\"keys\":[]}", "agentteams.x.keys"))
        .hasMessageContaining("no key");
    assertThatThrownBy(() -> TokenKeys.edge(TokenKeys.generateInternalSigning(), "edge"))
        .isInstanceOf(TokenKeys.InvalidKeysException.class);
  }

  @Test
  void theGatewayReusesACallersTokenWhileHalfItsLifeIsLeft() {
    TestClock now = new TestClock();
    CallerTokens signing = CallerTokens.signing(signingKeys, "gateway", "internal", now);
    Caller alice = new Caller.Owner("alice");
    String first = signing.reusable(alice, Duration.ofMinutes(2));

    assertThat(signing.reusable(alice, Duration.ofMinutes(2))).isEqualTo(first);
    assertThat(signing.reusable(new Caller.Owner("bob"), Duration.ofMinutes(2)))
        .isNotEqualTo(first);
    assertThat(signing.reusable(alice, Duration.ofMinutes(4))).isNotEqualTo(first);
    now.advance(Duration.ofSeconds(59));
    assertThat(signing.reusable(alice, Duration.ofMinutes(2))).isEqualTo(first);
    now.advance(Duration.ofSeconds(2));
    assertThat(signing.reusable(alice, Duration.ofMinutes(2))).isNotEqualTo(first);
  }

  @Test
  void aRememberedTokenIsRefusedOnceItExpiresAndAnAlteredOneIsVerifiedAgain() {
    TestClock now = new TestClock();
    CallerTokens signing = CallerTokens.signing(signingKeys, "gateway", "internal", now);
    CallerTokens verifying =
        CallerTokens.verifying(
            TokenKeys.internalVerification(TokenKeys.publicSet(signingKeys), SETTING),
            "gateway",
            "internal",
            now);
    String token = signing.issue(new Caller.Owner("alice"), Duration.ofMinutes(2));
    assertThat(verifying.verify(token)).isEqualTo(new Caller.Owner("alice"));
    assertThat(verifying.verify(token)).isEqualTo(new Caller.Owner("alice"));

    // Another signature on the same claims is not the remembered token: it is checked, and fails.
    String[] parts = token.split("\\.");
    String forged = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    assertThatThrownBy(() -> verifying.verify(forged)).isInstanceOf(ProblemException.class);

    now.advance(Duration.ofMinutes(2).plusSeconds(31));
    assertThatThrownBy(() -> verifying.verify(token))
        .isInstanceOfSatisfying(
            ProblemException.class,
            p -> assertThat(p.kind()).isEqualTo(ProblemException.Kind.UNAUTHENTICATED));
  }

  private void assertRefused(String token) {
    assertThatThrownBy(() -> service.verify(token))
        .isInstanceOfSatisfying(
            ProblemException.class,
            p -> assertThat(p.kind()).isEqualTo(ProblemException.Kind.UNAUTHENTICATED));
  }
}
