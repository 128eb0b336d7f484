package io.agentteams.platform.secrets;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.DirectDecrypter;
import com.nimbusds.jose.crypto.DirectEncrypter;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Encrypts secrets a service keeps in its database with a key that is not there (configuration):
 * each value becomes a compact JWE ({@code dir}, A256GCM) whose protected header names the key
 * ({@code kid}) and the row and column it belongs to, so a ciphertext copied to another row does
 * not open there. The first key encrypts, every key decrypts what names it: keys rotate by adding
 * the new key first and re-encrypting ({@link #isCurrent}) before the old one is removed.
 */
public final class SecretsAtRest {

  private static final String TYPE = "agentteams-secret-at-rest";

  private final List<OctetSequenceKey> keys;
  private final Map<String, OctetSequenceKey> byId = new LinkedHashMap<>();

  /** The keys, the first of which encrypts. */
  public SecretsAtRest(List<OctetSequenceKey> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("at least one key");
    }
    this.keys = List.copyOf(keys);
    for (OctetSequenceKey key : keys) {
      byId.put(key.getKeyID(), key);
    }
  }

  /** The id of the key new values are encrypted with, kept beside each ciphertext. */
  public String keyId() {
    return keys.get(0).getKeyID();
  }

  /** Whether a value encrypted under {@code keyId} is under the key that encrypts now. */
  public boolean isCurrent(String keyId) {
    return keyId().equals(keyId);
  }

  /** The secret encrypted with the first key, bound to {@code binding} (its row and column). */
  public String encrypt(String secret, Map<String, String> binding) {
    OctetSequenceKey key = keys.get(0);
    JWEObject jwe =
        new JWEObject(
            Jwe.header(JWEAlgorithm.DIR, key.getKeyID(), TYPE, binding), new Payload(secret));
    try {
      jwe.encrypt(new DirectEncrypter(key));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot encrypt a secret", e);
    }
    return jwe.serialize();
  }

  /**
   * The secret, if {@code ciphertext} names a key held here and {@code binding}; otherwise {@link
   * SecretRefused}.
   */
  public String decrypt(String ciphertext, Map<String, String> binding) {
    JWEObject jwe = Jwe.parse(ciphertext, JWEAlgorithm.DIR, TYPE, binding);
    OctetSequenceKey key = byId.get(jwe.getHeader().getKeyID());
    if (key == null) {
      throw new SecretRefused(
          SecretRefused.Reason.UNKNOWN_KEY,
          "key id " + jwe.getHeader().getKeyID() + " is not among the configured keys");
    }
    try {
      jwe.decrypt(new DirectDecrypter(key));
    } catch (JOSEException e) {
      throw new SecretRefused(SecretRefused.Reason.UNDECRYPTABLE, "it does not decrypt");
    }
    return jwe.getPayload().toString();
  }
}
