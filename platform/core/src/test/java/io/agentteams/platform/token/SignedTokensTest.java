package io.agentteams.platform.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.token.TokenRefused.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SignedTokensTest {

  private static final JOSEObjectType TYPE = new JOSEObjectType("test+jwt");
  private static final TokenFormat FORMAT = TokenFormat.of(TYPE, "issuer", List.of("mailbox"));
  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final StoppedClock clock = new StoppedClock();
  private final List<ECKey> keys = ecKeys();
  private final SignedTokens signing = SignedTokens.es256Signing(keys, FORMAT, clock);
  private final SignedTokens verifying = SignedTokens.es256Verifying(keys, FORMAT, clock);

  /** A clock that stands at a whole second until a test moves it. */
  private static final class StoppedClock extends Clock {
    private Instant now = Instant.parse("2026-12-07T10:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  private static List<ECKey> ecKeys() {
    return TokenKeys.internalSigning(TokenKeys.generateInternalSigning(), "test.keys");
  }

  private static JWTClaimsSet.Builder alice() {
    return new JWTClaimsSet.Builder().subject("alice");
  }

  @Test
  void aMintedTokenVerifiesWithItsIssuerAudienceIdAndExpiry() throws Exception {
    SignedTokens.Minted minted = signing.mint(alice(), MINUTE);

    JWTClaimsSet claims = verifying.verify(minted.token());

    assertThat(claims.getSubject()).isEqualTo("alice");
    assertThat(claims.getIssuer()).isEqualTo("issuer");
    assertThat(claims.getAudience()).containsExactly("mailbox");
    assertThat(claims.getJWTID()).isEqualTo(minted.id().toString());
    assertThat(claims.getExpirationTime().toInstant()).isEqualTo(minted.expiresAt());
    assertThat(minted.expiresAt()).isEqualTo(minted.issuedAt().plus(MINUTE));
    JWSHeader header = SignedJWT.parse(minted.token()).getHeader();
    assertThat(header.getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
    assertThat(header.getKeyID()).isEqualTo(keys.get(0).getKeyID());
    assertThat(header.getType()).isEqualTo(TYPE);
  }

  @Test
  void refusesATokenForAnotherAudience() {
    var taskBoard =
        SignedTokens.es256Verifying(
            keys, TokenFormat.of(TYPE, "issuer", List.of("task-board")), clock);
    assertRefused(taskBoard, signing.mint(alice(), MINUTE).token(), Reason.WRONG_AUDIENCE);
  }

  @Test
  void refusesATokenOfAnotherIssuer() {
    var stranger =
        SignedTokens.es256Signing(
            keys, TokenFormat.of(TYPE, "someone-else", List.of("mailbox")), clock);
    assertRefused(verifying, stranger.mint(alice(), MINUTE).token(), Reason.WRONG_ISSUER);
  }

  @Test
  void refusesATokenOfAnotherType() {
    var other =
        SignedTokens.es256Signing(
            keys,
            TokenFormat.of(new JOSEObjectType("other+jwt"), "issuer", List.of("mailbox")),
            clock);
    assertRefused(verifying, other.mint(alice(), MINUTE).token(), Reason.BAD_SIGNATURE);
  }

  @Test
  void acceptsATokenWithinTheClockSkewAfterItsExpiryAndRefusesItAfter() {
    String token = signing.mint(alice(), MINUTE).token();
    clock.advance(MINUTE.plus(TokenFormat.CLOCK_SKEW).minusSeconds(1));
    assertThat(verifying.verify(token).getSubject()).isEqualTo("alice");
    clock.advance(Duration.ofSeconds(1));
    assertRefused(verifying, token, Reason.EXPIRED);
  }

  @Test
  void refusesATokenWhoseKeyIdIsUnknownOrMissing() {
    var stranger = SignedTokens.es256Signing(ecKeys(), FORMAT, clock);
    assertRefused(verifying, stranger.mint(alice(), MINUTE).token(), Reason.BAD_SIGNATURE);
  }

  @Test
  void refusesAnotherKeyClaimingAKnownKeyId() {
    ECKey impostor = new ECKey.Builder(ecKeys().get(0)).keyID(keys.get(0).getKeyID()).build();
    var forger = SignedTokens.es256Signing(List.of(impostor), FORMAT, clock);
    assertRefused(verifying, forger.mint(alice(), MINUTE).token(), Reason.BAD_SIGNATURE);
  }

  @Test
  void refusesUnsignedTokensAndHmacKeyedWithThePublicKey() throws Exception {
    JWTClaimsSet claims =
        alice()
            .issuer("issuer")
            .audience("mailbox")
            .expirationTime(Date.from(clock.instant().plus(MINUTE)))
            .build();
    assertRefused(verifying, new PlainJWT(claims).serialize(), Reason.UNREADABLE);
    // "alg":"none" with the header of a real token and no signature
    String none =
        Base64URL.encode(
                    "{\"alg\":\"none\",\"typ\":\"test+jwt\",\"kid\":\""
                        + keys.get(0).getKeyID()
                        + "\"}")
                .toString()
            + "."
            + claims.toPayload().toBase64URL()
            + ".";
    assertRefused(verifying, none, Reason.UNREADABLE);
    byte[] publicMaterial = TokenKeys.publicSet(keys).repeat(2).getBytes(StandardCharsets.UTF_8);
    SignedJWT hmac =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256)
                .keyID(keys.get(0).getKeyID())
                .type(TYPE)
                .build(),
            claims);
    hmac.sign(new MACSigner(publicMaterial));
    assertRefused(verifying, hmac.serialize(), Reason.BAD_SIGNATURE);
  }

  @Test
  void refusesATokenWhosePayloadWasAltered() throws Exception {
    String[] parts = signing.mint(alice(), MINUTE).token().split("\\.");
    JWTClaimsSet bob =
        new JWTClaimsSet.Builder(JWTClaimsSet.parse(Base64URL.from(parts[1]).decodeToString()))
            .subject("bob")
            .build();
    String tampered = parts[0] + "." + bob.toPayload().toBase64URL() + "." + parts[2];
    assertRefused(verifying, tampered, Reason.BAD_SIGNATURE);
  }

  @Test
  void refusesNothingAndGarbageAsSuch() {
    assertRefused(verifying, null, Reason.NO_TOKEN);
    assertRefused(verifying, " ", Reason.NO_TOKEN);
    assertRefused(verifying, "not.a.token", Reason.UNREADABLE);
  }

  @Test
  void whileRotatingBothKeysAreAcceptedAndTheNewOneSigns() throws Exception {
    ECKey fresh = ecKeys().get(0);
    var before = SignedTokens.es256Signing(keys, FORMAT, clock);
    var after = SignedTokens.es256Signing(List.of(fresh, keys.get(0)), FORMAT, clock);
    var rotating = SignedTokens.es256Verifying(List.of(fresh, keys.get(0)), FORMAT, clock);

    String old = before.mint(alice(), MINUTE).token();
    String rotated = after.mint(alice(), MINUTE).token();

    assertThat(rotating.verify(old).getSubject()).isEqualTo("alice");
    assertThat(rotating.verify(rotated).getSubject()).isEqualTo("alice");
    assertThat(SignedJWT.parse(rotated).getHeader().getKeyID()).isEqualTo(fresh.getKeyID());
    // Where the new key is not yet known, what it signs is refused.
    assertRefused(verifying, rotated, Reason.BAD_SIGNATURE);
  }

  @Test
  void aVerifyingServiceCannotSign() {
    assertThat(verifying.canSign()).isFalse();
    assertThatThrownBy(() -> verifying.mint(alice(), MINUTE))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void refusesARevokedTokenOnceItsSignatureAndClaimsHold() {
    Set<String> revoked = new HashSet<>();
    SignedTokens revocable = verifying.revocableBy(revoked::contains);
    SignedTokens.Minted minted = signing.mint(alice(), MINUTE);
    assertThat(revocable.verify(minted.token()).getSubject()).isEqualTo("alice");

    revoked.add(minted.id().toString());

    assertRefused(revocable, minted.token(), Reason.REVOKED);
    assertThat(SignedTokens.tokenId(minted.token())).isEqualTo(minted.id().toString());
  }

  @Test
  void hmacKeysRotateByKeyIdAndAnotherKeyIsRefused() {
    OctetSequenceKey old = TokenKeys.edge(TokenKeys.generateEdge(), "edge").get(0);
    OctetSequenceKey fresh = TokenKeys.edge(TokenKeys.generateEdge(), "edge").get(0);
    var before = SignedTokens.hs256(List.of(old), FORMAT, clock);
    var rotating = SignedTokens.hs256(List.of(fresh, old), FORMAT, clock);

    assertThat(rotating.verify(before.mint(alice(), MINUTE).token()).getSubject())
        .isEqualTo("alice");
    assertRefused(before, rotating.mint(alice(), MINUTE).token(), Reason.BAD_SIGNATURE);
    // An ES256 token of the same format is refused by HS256 keys, and the other way round.
    assertRefused(rotating, signing.mint(alice(), MINUTE).token(), Reason.BAD_SIGNATURE);
    assertRefused(verifying, rotating.mint(alice(), MINUTE).token(), Reason.BAD_SIGNATURE);
  }

  @Test
  void aSecretWithoutKeyIdReadsBackItsOwnUnaddressedTokensUntilTheyExpire() throws Exception {
    byte[] secret = "test-only-secret-of-thirty-two-bytes!".getBytes(StandardCharsets.UTF_8);
    SignedTokens cookies = SignedTokens.hs256(secret, TokenFormat.unaddressed(), clock);
    String token = cookies.mint(alice(), MINUTE).token();

    JWSHeader header = SignedJWT.parse(token).getHeader();
    assertThat(header.getKeyID()).isNull();
    assertThat(header.getType()).isNull();
    assertThat(cookies.verify(token).getSubject()).isEqualTo("alice");
    byte[] other = "another-test-only-secret-of-32-bytes".getBytes(StandardCharsets.UTF_8);
    assertRefused(
        SignedTokens.hs256(other, TokenFormat.unaddressed(), clock), token, Reason.BAD_SIGNATURE);
    // No skew: refused at the instant it expires.
    clock.advance(MINUTE);
    assertRefused(cookies, token, Reason.EXPIRED);
  }

  private static void assertRefused(SignedTokens tokens, String token, Reason reason) {
    assertThatThrownBy(() -> tokens.verify(token))
        .isInstanceOfSatisfying(
            TokenRefused.class, refused -> assertThat(refused.reason()).isEqualTo(reason));
  }
}
