package io.agentteams.scheduler.webhook;

import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.platform.secrets.SecretOpener;
import io.agentteams.platform.secrets.SecretsAtRest;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The keys webhook signing secrets are protected with in the scheduler, none by default (the
 * scheduler refuses to start without them, naming the setting): its unsealing keys, the private
 * halves of what team-service seals the secrets to on the runtimes topic, and its own at-rest keys,
 * which encrypt them in its database. Neither is in the database.
 */
@Configuration(proxyBeanMethods = false)
public class WebhookSecretKeys {

  /** The scheduler's at-rest keys: symmetric, 256 bits; the first encrypts, every key decrypts. */
  public static final String SECRETS_KEYS = "agentteams.scheduler.secrets-keys";

  /** The scheduler's unsealing keys: EC P-256 private; each opens what names its id. */
  public static final String UNSEALING_KEYS = "agentteams.scheduler.secret-unsealing-keys";

  @Bean
  SecretsAtRest webhookSecretsAtRest(@Value("${" + SECRETS_KEYS + ":}") String keys) {
    return new SecretsAtRest(SecretKeys.atRest(keys, SECRETS_KEYS));
  }

  @Bean
  SecretOpener webhookSecretOpener(@Value("${" + UNSEALING_KEYS + ":}") String keys) {
    return new SecretOpener(SecretKeys.unsealing(keys, UNSEALING_KEYS));
  }

  /**
   * Encrypts plaintext (and re-encrypts older-key) rows at start and every {@code
   * secret-upgrade-interval}, catching rows a replica of an earlier version wrote during a rolling
   * upgrade.
   */
  @Bean
  PeriodicLoop webhookSecretUpgradeLoop(
      PeriodicLoops loops, PushAgentStore agents, WebhookProperties properties) {
    return loops
        .named("webhook-secret-upgrade")
        .every(properties.secretUpgradeInterval())
        .firstAfter(Duration.ZERO)
        .running(agents::encryptStale);
  }
}
