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
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The key sets tokens are signed and verified with, read from configuration as JSON Web Key Sets
 * (RFC 7517). Three kinds, each with its own rules:
 *
 * <ul>
 *   <li><b>internal signing keys</b> (the gateway only): EC P-256 private keys; the first signs
 *       internal tokens (ES256) and names itself in the token's {@code kid};
 *   <li><b>internal verification keys</b> (every service): the public halves of those keys; a set
 *       that holds private key material is refused, so no service can ever sign;
 *   <li><b>edge keys</b> (the gateway only): symmetric keys of 256 bits or more for the tokens the
 *       gateway hands to clients (HS256); the first signs, every key verifies.
 * </ul>
 *
 * Rotation is two keys valid at once: a new key is added beside the old one where tokens are
 * verified, then moved first where they are signed, and the old key is removed once no token it
 * signed can still be alive. Nothing here has a default: a missing set is a start-up failure that
 * names its setting.
 */
public final class TokenKeys {

  private TokenKeys() {}

  /** The gateway's internal signing keys: EC P-256 with private parts; the first signs. */
  public static List<ECKey> internalSigning(@Nullable String jwks, String setting) {
    List<ECKey> keys = new ArrayList<>();
    for (JWK key : parse(jwks, setting).getKeys()) {
      if (!(key instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve()) || !ec.isPrivate()) {
        throw new InvalidKeysException(
            setting, "every key must be an EC P-256 private key (kty EC, crv P-256, with d)");
      }
      keys.add(ec);
    }
    return keys;
  }

  /**
   * A service's internal verification keys: EC P-256 public keys. A private key here is refused: a
   * service that could sign could act as the gateway.
   */
  public static JWKSet internalVerification(@Nullable String jwks, String setting) {
    JWKSet set = parse(jwks, setting);
    for (JWK key : set.getKeys()) {
      if (!(key instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve())) {
        throw new InvalidKeysException(setting, "every key must be an EC P-256 public key");
      }
      if (key.isPrivate()) {
        throw new InvalidKeysException(
            setting,
            "it holds private key material; services get the public keys only (the gateway alone"
                + " signs)");
      }
    }
    return set;
  }

  /** The gateway's edge keys: symmetric, 256 bits or more; the first signs. */
  public static List<OctetSequenceKey> edge(@Nullable String jwks, String setting) {
    List<OctetSequenceKey> keys = new ArrayList<>();
    for (JWK key : parse(jwks, setting).getKeys()) {
      if (!(key instanceof OctetSequenceKey oct) || oct.size() < 256) {
        throw new InvalidKeysException(
            setting, "every key must be a symmetric key (kty oct) of 256 bits or more");
      }
      keys.add(oct);
    }
    return keys;
  }

  /** The public halves of a set of signing keys, as a JWK set the services can be given. */
  public static String publicSet(List<ECKey> signing) {
    List<JWK> publics = new ArrayList<>();
    for (ECKey key : signing) {
      publics.add(key.toPublicJWK());
    }
    return new JWKSet(publics).toString(true);
  }

  /** A fresh internal signing key set with one key, as JSON. */
  public static String generateInternalSigning() {
    try {
      ECKey key =
          new ECKeyGenerator(Curve.P_256)
              .keyUse(KeyUse.SIGNATURE)
              .keyIDFromThumbprint(true)
              .generate();
      return new JWKSet(key).toString(false);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate an EC key", e);
    }
  }

  /** A fresh edge key set with one 256-bit key, as JSON. */
  public static String generateEdge() {
    try {
      OctetSequenceKey key =
          new OctetSequenceKeyGenerator(256)
              .keyUse(KeyUse.SIGNATURE)
              .keyIDFromThumbprint(true)
              .generate();
      return new JWKSet(key).toString(false);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate a key", e);
    }
  }

  static JWKSet parse(@Nullable String jwks, String setting) {
    if (jwks == null || jwks.isBlank()) {
      throw new MissingSettingException(setting, "a JSON Web Key Set (RFC 7517)");
    }
    JWKSet set;
    try {
      set = JWKSet.parse(jwks);
    } catch (ParseException e) {
      throw new InvalidKeysException(setting, "it is not a JSON Web Key Set: " + e.getMessage());
    }
    if (set.getKeys().isEmpty()) {
      throw new InvalidKeysException(setting, "it holds no key");
    }
    Set<String> ids = new HashSet<>();
    for (JWK key : set.getKeys()) {
      if (key.getKeyID() == null || key.getKeyID().isBlank()) {
        throw new InvalidKeysException(setting, "every key needs a key id (kid)");
      }
      if (!ids.add(key.getKeyID())) {
        throw new InvalidKeysException(setting, "key id " + key.getKeyID() + " appears twice");
      }
    }
    return set;
  }

  /** A key set that is present but unusable; says which setting and why, never the keys. */
  public static final class InvalidKeysException extends IllegalStateException {
    InvalidKeysException(String setting, String why) {
      super(setting + " is not usable: " + why);
    }
  }
}
