package io.agentteams.platform.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The key sets webhook signing secrets are encrypted with, read from configuration as JSON Web Key
 * Sets (RFC 7517) like {@link TokenKeys}, each with a {@code kid}. Three kinds:
 *
 * <ul>
 *   <li><b>at-rest keys</b> (team-service and the scheduler, each its own): symmetric keys of
 *       exactly 256 bits (A256GCM); the first encrypts, every key decrypts what names its id;
 *   <li><b>sealing keys</b> (team-service): the public halves of the scheduler's unsealing keys, EC
 *       P-256; the first seals what team-service publishes for the scheduler; a set holding private
 *       key material is refused, so team-service can open nothing sealed;
 *   <li><b>unsealing keys</b> (the scheduler only): EC P-256 private keys; each opens what was
 *       sealed to its public half under its {@code kid}.
 * </ul>
 *
 * Nothing here has a default: a missing set is a start-up failure that names its setting.
 */
public final class SecretKeys {

  private SecretKeys() {}

  /** Keys that encrypt secrets at rest: symmetric, 256 bits; the first encrypts. */
  public static List<OctetSequenceKey> atRest(@Nullable String jwks, String setting) {
    List<OctetSequenceKey> keys = new ArrayList<>();
    for (JWK key : TokenKeys.parse(jwks, setting).getKeys()) {
      if (!(key instanceof OctetSequenceKey oct) || oct.size() != 256) {
        throw new TokenKeys.InvalidKeysException(
            setting, "every key must be a symmetric key (kty oct) of exactly 256 bits");
      }
      keys.add(oct);
    }
    return keys;
  }

  /**
   * The scheduler's public sealing keys, as team-service holds them: EC P-256 public keys. A
   * private key here is refused: only the scheduler opens what is sealed for it.
   */
  public static List<ECKey> sealing(@Nullable String jwks, String setting) {
    List<ECKey> keys = new ArrayList<>();
    for (JWK key : TokenKeys.parse(jwks, setting).getKeys()) {
      if (!(key instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve())) {
        throw new TokenKeys.InvalidKeysException(
            setting, "every key must be an EC P-256 public key");
      }
      if (key.isPrivate()) {
        throw new TokenKeys.InvalidKeysException(
            setting,
            "it holds private key material; team-service gets the public keys only (the scheduler"
                + " alone unseals)");
      }
      keys.add(ec);
    }
    return keys;
  }

  /** The scheduler's unsealing keys: EC P-256 with private parts. */
  public static List<ECKey> unsealing(@Nullable String jwks, String setting) {
    List<ECKey> keys = new ArrayList<>();
    for (JWK key : TokenKeys.parse(jwks, setting).getKeys()) {
      if (!(key instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve()) || !ec.isPrivate()) {
        throw new TokenKeys.InvalidKeysException(
            setting, "every key must be an EC P-256 private key (kty EC, crv P-256, with d)");
      }
      keys.add(ec);
    }
    return keys;
  }

  /** The public halves of a set of unsealing keys, as the sealing keys team-service is given. */
  public static String publicSet(String unsealingJwks) {
    return TokenKeys.publicSet(unsealing(unsealingJwks, "unsealing keys"));
  }

  /** A fresh at-rest key set with one 256-bit key, as JSON. */
  public static String generateAtRest() {
    try {
      OctetSequenceKey key =
          new OctetSequenceKeyGenerator(256)
              .keyUse(KeyUse.ENCRYPTION)
              .keyIDFromThumbprint(true)
              .generate();
      return new JWKSet(key).toString(false);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate a key", e);
    }
  }

  /** A fresh unsealing key set with one EC P-256 key, as JSON. */
  public static String generateUnsealing() {
    try {
      ECKey key =
          new ECKeyGenerator(Curve.P_256)
              .keyUse(KeyUse.ENCRYPTION)
              .keyIDFromThumbprint(true)
              .generate();
      return new JWKSet(key).toString(false);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate an EC key", e);
    }
  }
}
