package io.agentteams.platform.secrets;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDHEncrypter;
import com.nimbusds.jose.jwk.ECKey;
import java.util.List;
import java.util.Map;

/**
 * Seals a payload for the one service that holds the private half of a sealing key: a compact JWE
 * (ECDH-ES+A256KW, A256GCM, P-256) whose protected header names the key ({@code kid}) and the
 * record it belongs to (its binding, e.g. owner and agent), so what is sealed for one record is
 * refused on any other. Holding only public keys, the sealer opens nothing.
 */
public final class SecretSealer {

  /** The {@code typ} of a sealed webhook secret set. */
  public static final String TYPE = "agentteams-sealed-secrets";

  private final ECKey key;

  /** The recipient's public keys; the first seals. */
  public SecretSealer(List<ECKey> publicKeys) {
    if (publicKeys.isEmpty()) {
      throw new IllegalArgumentException("at least one key");
    }
    this.key = publicKeys.get(0);
  }

  /** The id of the key that seals. */
  public String keyId() {
    return key.getKeyID();
  }

  /** The payload (a JSON object) sealed for the recipient, bound to {@code binding}. */
  public String seal(Map<String, String> binding, Map<String, Object> payload) {
    JWEObject jwe =
        new JWEObject(
            Jwe.header(JWEAlgorithm.ECDH_ES_A256KW, key.getKeyID(), TYPE, binding),
            new Payload(payload));
    try {
      jwe.encrypt(new ECDHEncrypter(key));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot seal a secret", e);
    }
    return jwe.serialize();
  }
}
