package io.agentteams.platform.secrets;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEObject;
import com.nimbusds.jose.crypto.ECDHDecrypter;
import com.nimbusds.jose.jwk.ECKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Opens what a {@link SecretSealer} sealed for this service, with the private key its {@code kid}
 * names, and only for the record its header is bound to: anything else is {@link SecretRefused}
 * with the reason.
 */
public final class SecretOpener {

  private final Map<String, ECKey> byId = new LinkedHashMap<>();

  /** The private keys; each opens what names it. */
  public SecretOpener(List<ECKey> privateKeys) {
    if (privateKeys.isEmpty()) {
      throw new IllegalArgumentException("at least one key");
    }
    for (ECKey key : privateKeys) {
      byId.put(key.getKeyID(), key);
    }
  }

  /** The payload sealed in {@code sealed}, if its header names {@code binding} and a key held. */
  public Map<String, Object> open(String sealed, Map<String, String> binding) {
    JWEObject jwe = Jwe.parse(sealed, JWEAlgorithm.ECDH_ES_A256KW, SecretSealer.TYPE, binding);
    ECKey key = byId.get(jwe.getHeader().getKeyID());
    if (key == null) {
      throw new SecretRefused(
          SecretRefused.Reason.UNKNOWN_KEY,
          "key id " + jwe.getHeader().getKeyID() + " is not among the unsealing keys");
    }
    try {
      jwe.decrypt(new ECDHDecrypter(key));
      Map<String, Object> payload = jwe.getPayload().toJSONObject();
      if (payload == null) {
        throw new SecretRefused(SecretRefused.Reason.UNREADABLE, "its payload is not an object");
      }
      return payload;
    } catch (JOSEException e) {
      throw new SecretRefused(SecretRefused.Reason.UNDECRYPTABLE, "it does not decrypt");
    }
  }
}
