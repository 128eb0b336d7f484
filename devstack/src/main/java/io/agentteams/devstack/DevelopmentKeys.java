package io.agentteams.devstack;

import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.identity.TokenKeys;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DEVELOPMENT ONLY: the keys of one embedded stack, made afresh each time it starts and never
 * written anywhere, handed to each part as a deployment would (the services get the gateway's
 * public keys only; the gateway its private and edge keys; the scheduler its dispatch key). Tokens
 * therefore do not outlive the stack. The keys that protect webhook secrets are the exception: they
 * are fixed ({@link #TEAM_SECRETS_KEYS}, {@link #SCHEDULER_SECRETS_KEYS}, {@link
 * #SCHEDULER_UNSEALING_KEYS}), because what they encrypt outlives a start (the stack keeps its
 * databases and its runtimes topic under its data folder), and they are public, in this source:
 * they protect nothing outside this stack. No service has keys of its own by default: outside this
 * stack (and the tests) every key must be given.
 *
 * @param internalSigning the gateway's internal signing keys
 * @param edge the gateway's edge keys
 * @param dispatchSigning the scheduler's dispatch signing keys
 */
public record DevelopmentKeys(String internalSigning, String edge, String dispatchSigning) {

  /** DEVELOPMENT ONLY, published here: team-service's at-rest key for webhook secrets. */
  public static final String TEAM_SECRETS_KEYS =
      "{\"keys\":[{\"kty\":\"oct\",\"use\":\"enc\",\"kid\":\"dev-team-secrets-1\","
          + "\"k\":\"E3P4AhwLhVFeRnMEfNZDp_KQehWUica3uGAN7oytfKI\"}]}";

  /** DEVELOPMENT ONLY, published here: the scheduler's at-rest key for webhook secrets. */
  public static final String SCHEDULER_SECRETS_KEYS =
      "{\"keys\":[{\"kty\":\"oct\",\"use\":\"enc\",\"kid\":\"dev-scheduler-secrets-1\","
          + "\"k\":\"-Kfrosx-WfGvWNgSfwsJpy21l08AX5TuXYaNb1pK9_w\"}]}";

  /**
   * DEVELOPMENT ONLY, published here: the scheduler's unsealing key (private), whose public half
   * team-service seals webhook secrets to.
   */
  public static final String SCHEDULER_UNSEALING_KEYS =
      "{\"keys\":[{\"kty\":\"EC\",\"use\":\"enc\",\"crv\":\"P-256\","
          + "\"kid\":\"dev-scheduler-unsealing-1\","
          + "\"d\":\"m9AOg2zbLcMBOsjQ3XnGTX2XAj7SGoWDo6rPtb2PnkI\","
          + "\"x\":\"HOjZJc9K13PgoYcxKJ9gci6HiG0bWSzR_CtN-EYr53U\","
          + "\"y\":\"J5qWVTPkR7ciz2CjUfmHBMgX6SOOcVrKz5O2VS0BXZ4\"}]}";

  /** Fresh keys. */
  public static DevelopmentKeys generate() {
    return new DevelopmentKeys(
        TokenKeys.generateInternalSigning(),
        TokenKeys.generateEdge(),
        TokenKeys.generateInternalSigning());
  }

  /** The keys one part of the stack holds, as its settings. */
  public Map<String, Object> settingsFor(ServiceStack.Service service) {
    Map<String, Object> settings = new LinkedHashMap<>();
    switch (service) {
      case GATEWAY -> settings.putAll(gatewaySettings());
      case SCHEDULER -> {
        settings.put("agentteams.identity.internal-verification-keys", internalVerification());
        settings.put("agentteams.scheduler.dispatch-signing-keys", dispatchSigning);
        settings.put("agentteams.scheduler.secrets-keys", SCHEDULER_SECRETS_KEYS);
        settings.put("agentteams.scheduler.secret-unsealing-keys", SCHEDULER_UNSEALING_KEYS);
      }
      case TEAM -> {
        settings.put("agentteams.identity.internal-verification-keys", internalVerification());
        settings.put("agentteams.team.secrets-keys", TEAM_SECRETS_KEYS);
        settings.put(
            "agentteams.team.secret-sealing-keys", SecretKeys.publicSet(SCHEDULER_UNSEALING_KEYS));
      }
      default ->
          settings.put("agentteams.identity.internal-verification-keys", internalVerification());
    }
    return settings;
  }

  /** The gateway's settings: another gateway given them can join this stack. */
  public Map<String, Object> gatewaySettings() {
    return Map.of(
        "agentteams.gateway.identity.internal-signing-keys", internalSigning,
        "agentteams.gateway.identity.edge-keys", edge,
        "agentteams.gateway.identity.dispatch-verification-keys",
            TokenKeys.publicSet(TokenKeys.internalSigning(dispatchSigning, "development keys")));
  }

  private String internalVerification() {
    return TokenKeys.publicSet(TokenKeys.internalSigning(internalSigning, "development keys"));
  }
}
