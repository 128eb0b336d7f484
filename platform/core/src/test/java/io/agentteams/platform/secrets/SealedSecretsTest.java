package io.agentteams.platform.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWEObject;
import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.identity.TokenKeys;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SealedSecretsTest {

  private static final String UNSEALING = SecretKeys.generateUnsealing();
  private static final Map<String, String> AGENT = Map.of("owner_id", "alice", "agent_id", "hook");

  private final SecretSealer sealer =
      new SecretSealer(SecretKeys.sealing(SecretKeys.publicSet(UNSEALING), "sealing"));
  private final SecretOpener opener =
      new SecretOpener(SecretKeys.unsealing(UNSEALING, "unsealing"));

  @Test
  void aSealedPayloadIsAnEcdhJweNamingItsKeyAndRecordAndOpensOnlyForThatRecord() throws Exception {
    String sealed = sealer.seal(AGENT, Map.of("current", "whsec_abc"));

    assertThat(sealed).doesNotContain("whsec_abc").hasLineCount(1);
    JWEObject jwe = JWEObject.parse(sealed);
    assertThat(jwe.getHeader().getAlgorithm().getName()).isEqualTo("ECDH-ES+A256KW");
    assertThat(jwe.getHeader().getEncryptionMethod().getName()).isEqualTo("A256GCM");
    assertThat(jwe.getHeader().getKeyID()).isEqualTo(sealer.keyId());
    assertThat(jwe.getHeader().getCustomParam("owner_id")).isEqualTo("alice");
    assertThat(jwe.getHeader().getCustomParam("agent_id")).isEqualTo("hook");
    assertThat(opener.open(sealed, AGENT)).containsEntry("current", "whsec_abc");

    assertThatThrownBy(() -> opener.open(sealed, Map.of("owner_id", "alice", "agent_id", "other")))
        .isInstanceOfSatisfying(
            SecretRefused.class,
            r -> assertThat(r.reason()).isEqualTo(SecretRefused.Reason.BINDING));
    assertThatThrownBy(() -> opener.open(sealed, Map.of("owner_id", "bob", "agent_id", "hook")))
        .isInstanceOfSatisfying(
            SecretRefused.class,
            r -> assertThat(r.reason()).isEqualTo(SecretRefused.Reason.BINDING));
  }

  @Test
  void aSealUnderAKeyIdTheOpenerDoesNotHoldIsRefused() {
    String other = SecretKeys.generateUnsealing();
    String sealed =
        new SecretSealer(SecretKeys.sealing(SecretKeys.publicSet(other), "sealing"))
            .seal(AGENT, Map.of("current", "whsec_abc"));

    assertThatThrownBy(() -> opener.open(sealed, AGENT))
        .isInstanceOfSatisfying(
            SecretRefused.class,
            r -> assertThat(r.reason()).isEqualTo(SecretRefused.Reason.UNKNOWN_KEY));
    assertThatThrownBy(() -> opener.open("whsec_abc", AGENT))
        .isInstanceOfSatisfying(
            SecretRefused.class,
            r -> assertThat(r.reason()).isEqualTo(SecretRefused.Reason.UNREADABLE));
  }

  @Test
  void teamServiceIsRefusedThePrivateHalf() {
    assertThatThrownBy(() -> SecretKeys.sealing(UNSEALING, "agentteams.team.secret-sealing-keys"))
        .isInstanceOf(TokenKeys.InvalidKeysException.class)
        .hasMessageContaining("agentteams.team.secret-sealing-keys")
        .hasMessageContaining("private");
  }

  @Test
  void atRestTheFirstKeyEncryptsEveryKeyDecryptsAndACiphertextOpensOnlyInItsOwnRow() {
    String oldKeys = SecretKeys.generateAtRest();
    SecretsAtRest old = new SecretsAtRest(SecretKeys.atRest(oldKeys, "at rest"));
    Map<String, String> row = Map.of("owner_id", "alice", "agent_id", "hook", "column", "secret");
    String before = old.encrypt("whsec_abc", row);
    assertThat(before).doesNotContain("whsec_abc");
    assertThat(new String(Base64.getUrlDecoder().decode(before.split("\\.")[0])))
        .contains("\"kid\":\"" + old.keyId() + "\"");

    String newKeys = SecretKeys.generateAtRest();
    List<com.nimbusds.jose.jwk.JWK> newFirst =
        new java.util.ArrayList<>(SecretKeys.atRest(newKeys, "at rest"));
    newFirst.addAll(SecretKeys.atRest(oldKeys, "at rest"));
    String both = new com.nimbusds.jose.jwk.JWKSet(newFirst).toString(false);
    SecretsAtRest rotated = new SecretsAtRest(SecretKeys.atRest(both, "at rest"));
    assertThat(rotated.keyId()).isNotEqualTo(old.keyId());
    assertThat(rotated.isCurrent(old.keyId())).isFalse();
    assertThat(rotated.decrypt(before, row)).isEqualTo("whsec_abc");
    String after = rotated.encrypt("whsec_def", row);
    assertThat(rotated.decrypt(after, row)).isEqualTo("whsec_def");
    assertThatThrownBy(() -> old.decrypt(after, row))
        .as("the old set alone cannot read what the new key encrypted")
        .isInstanceOfSatisfying(
            SecretRefused.class,
            r -> assertThat(r.reason()).isEqualTo(SecretRefused.Reason.UNKNOWN_KEY));
    assertThatThrownBy(
            () ->
                rotated.decrypt(
                    before, Map.of("owner_id", "bob", "agent_id", "hook", "column", "secret")))
        .as("a ciphertext copied to another owner's row does not open there")
        .isInstanceOfSatisfying(
            SecretRefused.class,
            r -> assertThat(r.reason()).isEqualTo(SecretRefused.Reason.BINDING));
  }
}
