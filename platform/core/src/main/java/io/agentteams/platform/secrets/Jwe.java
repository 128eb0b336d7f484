package io.agentteams.platform.secrets;

import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWEObject;
import java.text.ParseException;
import java.util.Map;

/** What sealing and encryption at rest share: reading a compact JWE and checking its header. */
final class Jwe {

  private Jwe() {}

  /** A JWE header of the algorithms, naming the key and carrying the binding. */
  static JWEHeader header(
      JWEAlgorithm algorithm, String keyId, String type, Map<String, String> binding) {
    JWEHeader.Builder header =
        new JWEHeader.Builder(algorithm, EncryptionMethod.A256GCM)
            .keyID(keyId)
            .type(new JOSEObjectType(type));
    binding.forEach(header::customParam);
    return header.build();
  }

  /**
   * The compact JWE, once its header says the expected algorithms and type and names exactly the
   * binding given; its key id is for the caller to look up.
   */
  static JWEObject parse(
      String compact, JWEAlgorithm algorithm, String type, Map<String, String> binding) {
    JWEObject jwe;
    try {
      jwe = JWEObject.parse(compact);
    } catch (ParseException e) {
      throw new SecretRefused(SecretRefused.Reason.UNREADABLE, "not a compact JWE");
    }
    JWEHeader header = jwe.getHeader();
    if (!algorithm.equals(header.getAlgorithm())
        || !EncryptionMethod.A256GCM.equals(header.getEncryptionMethod())
        || header.getType() == null
        || !type.equals(header.getType().getType())) {
      throw new SecretRefused(
          SecretRefused.Reason.UNREADABLE, "not a " + type + " JWE (" + algorithm + ", A256GCM)");
    }
    if (header.getKeyID() == null) {
      throw new SecretRefused(SecretRefused.Reason.UNKNOWN_KEY, "it names no key id");
    }
    for (Map.Entry<String, String> bound : binding.entrySet()) {
      if (!bound.getValue().equals(header.getCustomParam(bound.getKey()))) {
        throw new SecretRefused(
            SecretRefused.Reason.BINDING,
            "its header names another " + bound.getKey() + " than the record it came with");
      }
    }
    return jwe;
  }
}
