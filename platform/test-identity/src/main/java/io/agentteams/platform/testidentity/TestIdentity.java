package io.agentteams.platform.testidentity;

import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.InternalAudiences;
import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.identity.TokenKeys;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TEST ONLY: the keys of this test JVM, made when first asked for and never written anywhere. Every
 * Spring test context receives them ({@link TestIdentityContextCustomizerFactory}); tests that call
 * a service directly sign their internal tokens with {@link #internalTokens()}, as the gateway
 * would.
 */
public final class TestIdentity {

  /** The services' setting for the gateway's public keys. */
  public static final String INTERNAL_VERIFICATION_KEYS =
      "agentteams.identity.internal-verification-keys";

  /** The gateway's setting for its internal signing keys. */
  public static final String INTERNAL_SIGNING_KEYS =
      "agentteams.gateway.identity.internal-signing-keys";

  /** The gateway's setting for its edge keys. */
  public static final String EDGE_KEYS = "agentteams.gateway.identity.edge-keys";

  /** The gateway's setting for the scheduler's public dispatch keys. */
  public static final String DISPATCH_VERIFICATION_KEYS =
      "agentteams.gateway.identity.dispatch-verification-keys";

  /** The scheduler's setting for its dispatch signing keys. */
  public static final String DISPATCH_SIGNING_KEYS = "agentteams.scheduler.dispatch-signing-keys";

  /** team-service's setting for its at-rest keys (webhook secrets in its database). */
  public static final String TEAM_SECRETS_KEYS = "agentteams.team.secrets-keys";

  /** team-service's setting for the scheduler's public sealing keys. */
  public static final String TEAM_SEALING_KEYS = "agentteams.team.secret-sealing-keys";

  /** The scheduler's setting for its at-rest keys (webhook secrets in its database). */
  public static final String SCHEDULER_SECRETS_KEYS = "agentteams.scheduler.secrets-keys";

  /** The scheduler's setting for its unsealing keys (private). */
  public static final String SCHEDULER_UNSEALING_KEYS =
      "agentteams.scheduler.secret-unsealing-keys";

  private static final String SIGNING = TokenKeys.generateInternalSigning();
  private static final String TEAM_SECRETS = SecretKeys.generateAtRest();
  private static final String SCHEDULER_SECRETS = SecretKeys.generateAtRest();
  private static final String UNSEALING = SecretKeys.generateUnsealing();
  private static final String SEALING = SecretKeys.publicSet(UNSEALING);
  private static final String VERIFICATION =
      TokenKeys.publicSet(TokenKeys.internalSigning(SIGNING, "test keys"));
  private static final String EDGE = TokenKeys.generateEdge();
  private static final String DISPATCH_SIGNING = TokenKeys.generateInternalSigning();
  private static final String DISPATCH_VERIFICATION =
      TokenKeys.publicSet(TokenKeys.internalSigning(DISPATCH_SIGNING, "test keys"));
  // TEST ONLY: one token good at every service, which the gateway never signs.
  private static final CallerTokens INTERNAL =
      CallerTokens.signingForEvery(
          TokenKeys.internalSigning(SIGNING, "test keys"),
          "agent-teams-gateway",
          InternalAudiences.ALL,
          Clock.systemUTC());

  private TestIdentity() {}

  /** Signs internal tokens the services of this JVM accept, as the gateway does. */
  public static CallerTokens internalTokens() {
    return INTERNAL;
  }

  /**
   * Signs internal tokens on the given clock, so that a test which moves its service's clock (lease
   * and time-out tests) hands out tokens that clock still finds alive.
   */
  public static CallerTokens internalTokens(Clock clock) {
    return CallerTokens.signingForEvery(
        TokenKeys.internalSigning(SIGNING, "test keys"),
        "agent-teams-gateway",
        InternalAudiences.ALL,
        clock);
  }

  /**
   * Reads internal tokens as the service named {@code audience} does ({@link InternalAudiences}),
   * with the public keys only.
   */
  public static CallerTokens internalVerifier(String audience) {
    return CallerTokens.verifying(
        TokenKeys.internalVerification(VERIFICATION, "test keys"),
        "agent-teams-gateway",
        audience,
        Clock.systemUTC());
  }

  /** Reads the scheduler's job-scoped member tokens as the gateway does. */
  public static CallerTokens jobMemberVerifier() {
    return CallerTokens.verifying(
        TokenKeys.internalVerification(DISPATCH_VERIFICATION, "test keys"),
        CallerTokens.JOB_MEMBER_TYPE,
        "agent-teams-scheduler",
        "agent-teams-api",
        Clock.systemUTC());
  }

  /** Command-line arguments followed by every key setting, for an application a benchmark runs. */
  public static String[] withKeys(String... arguments) {
    return java.util.stream.Stream.concat(
            java.util.Arrays.stream(arguments),
            allProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()))
        .toArray(String[]::new);
  }

  /** The gateway's internal signing keys (private). */
  public static String internalSigningKeys() {
    return SIGNING;
  }

  /** The services' verification keys (public). */
  public static String internalVerificationKeys() {
    return VERIFICATION;
  }

  /** The gateway's edge keys. */
  public static String edgeKeys() {
    return EDGE;
  }

  /** The scheduler's dispatch signing keys (private). */
  public static String dispatchSigningKeys() {
    return DISPATCH_SIGNING;
  }

  /** The scheduler's dispatch keys' public halves, which the gateway holds. */
  public static String dispatchVerificationKeys() {
    return DISPATCH_VERIFICATION;
  }

  /** team-service's at-rest keys. */
  public static String teamSecretsKeys() {
    return TEAM_SECRETS;
  }

  /** The scheduler's at-rest keys. */
  public static String schedulerSecretsKeys() {
    return SCHEDULER_SECRETS;
  }

  /** The scheduler's unsealing keys (private). */
  public static String unsealingKeys() {
    return UNSEALING;
  }

  /** The public halves of the scheduler's unsealing keys, which team-service seals with. */
  public static String sealingKeys() {
    return SEALING;
  }

  /** The settings team-service needs beyond a service's: its at-rest and sealing keys. */
  public static Map<String, Object> teamProperties() {
    return Map.of(TEAM_SECRETS_KEYS, TEAM_SECRETS, TEAM_SEALING_KEYS, SEALING);
  }

  /** The settings a service needs: the verification keys only. */
  public static Map<String, Object> serviceProperties() {
    return Map.of(INTERNAL_VERIFICATION_KEYS, VERIFICATION);
  }

  /**
   * The settings the scheduler needs beyond a service's: its dispatch signing, at-rest and
   * unsealing keys.
   */
  public static Map<String, Object> schedulerProperties() {
    return Map.of(
        DISPATCH_SIGNING_KEYS,
        DISPATCH_SIGNING,
        SCHEDULER_SECRETS_KEYS,
        SCHEDULER_SECRETS,
        SCHEDULER_UNSEALING_KEYS,
        UNSEALING);
  }

  /** The settings the gateway needs: its signing, edge and dispatch verification keys. */
  public static Map<String, Object> gatewayProperties() {
    return Map.of(
        INTERNAL_SIGNING_KEYS,
        SIGNING,
        EDGE_KEYS,
        EDGE,
        DISPATCH_VERIFICATION_KEYS,
        DISPATCH_VERIFICATION);
  }

  /**
   * Every setting, for a test context that may be any service or the gateway (a service ignores the
   * others' settings).
   */
  public static Map<String, Object> allProperties() {
    Map<String, Object> all = new LinkedHashMap<>(serviceProperties());
    all.putAll(teamProperties());
    all.putAll(schedulerProperties());
    all.putAll(gatewayProperties());
    return all;
  }
}
