package io.agentteams.team.agents;

import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.platform.secrets.SecretSealer;
import io.agentteams.platform.secrets.SecretsAtRest;
import io.agentteams.team.agents.application.WebhookSecretUpgrade;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The keys webhook signing secrets are protected with in team-service, none by default (the service
 * refuses to start without them, naming the setting): its own at-rest keys, which encrypt the
 * secrets in its database, and the scheduler's public sealing keys, which seal them for the
 * scheduler on the runtimes topic. Neither is in the database; team-service holds nothing that
 * opens a sealed secret.
 */
@Configuration(proxyBeanMethods = false)
public class WebhookSecretKeys {

  /** team-service's at-rest keys: symmetric, 256 bits; the first encrypts, every key decrypts. */
  public static final String SECRETS_KEYS = "agentteams.team.secrets-keys";

  /** The scheduler's public sealing keys (EC P-256); the first seals. */
  public static final String SEALING_KEYS = "agentteams.team.secret-sealing-keys";

  @Bean
  SecretsAtRest webhookSecretsAtRest(@Value("${" + SECRETS_KEYS + ":}") String keys) {
    return new SecretsAtRest(SecretKeys.atRest(keys, SECRETS_KEYS));
  }

  @Bean
  SecretSealer webhookSecretSealer(@Value("${" + SEALING_KEYS + ":}") String keys) {
    return new SecretSealer(SecretKeys.sealing(keys, SEALING_KEYS));
  }

  /**
   * Encrypts plaintext (and re-encrypts older-key) rows at start and every {@code
   * webhook-secret-upgrade-interval}, catching rows a replica of an earlier version wrote during a
   * rolling upgrade.
   */
  @Bean
  PeriodicLoop webhookSecretUpgradeLoop(
      PeriodicLoops loops, WebhookSecretUpgrade upgrade, AgentProperties properties) {
    return loops
        .named("webhook-secret-upgrade")
        .every(properties.webhookSecretUpgradeInterval())
        .firstAfter(Duration.ZERO)
        .running(upgrade::upgradeOnce);
  }
}
