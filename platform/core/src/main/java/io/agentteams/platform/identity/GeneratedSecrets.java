package io.agentteams.platform.identity;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fresh keys and passwords for one deployment, printed as the {@code .env} file docker compose
 * reads (see {@code docs/security-model.md}). Every value is made here, from a strong random
 * source, and printed once: nothing is written anywhere else.
 */
public final class GeneratedSecrets {

  private static final SecureRandom RANDOM = new SecureRandom();

  private GeneratedSecrets() {}

  /** Prints a new {@code .env}. */
  public static void main(String[] args) {
    System.out.print(render());
  }

  /** The settings, by their compose variable. */
  public static Map<String, String> generate() {
    String internalSigning = TokenKeys.generateInternalSigning();
    String dispatchSigning = TokenKeys.generateInternalSigning();
    String unsealing = SecretKeys.generateUnsealing();
    Map<String, String> secrets = new LinkedHashMap<>();
    secrets.put("AGENTTEAMS_INTERNAL_SIGNING_KEYS", internalSigning);
    secrets.put(
        "AGENTTEAMS_INTERNAL_VERIFICATION_KEYS",
        TokenKeys.publicSet(TokenKeys.internalSigning(internalSigning, "generated")));
    secrets.put("AGENTTEAMS_EDGE_KEYS", TokenKeys.generateEdge());
    secrets.put("AGENTTEAMS_DISPATCH_SIGNING_KEYS", dispatchSigning);
    secrets.put(
        "AGENTTEAMS_DISPATCH_VERIFICATION_KEYS",
        TokenKeys.publicSet(TokenKeys.internalSigning(dispatchSigning, "generated")));
    secrets.put("AGENTTEAMS_TEAM_SECRETS_KEYS", SecretKeys.generateAtRest());
    secrets.put("AGENTTEAMS_SCHEDULER_SECRETS_KEYS", SecretKeys.generateAtRest());
    secrets.put("AGENTTEAMS_SECRET_UNSEALING_KEYS", unsealing);
    secrets.put("AGENTTEAMS_SECRET_SEALING_KEYS", SecretKeys.publicSet(unsealing));
    for (String password :
        List.of(
            "AGENTTEAMS_POSTGRES_PASSWORD",
            "AGENTTEAMS_POSTGRES_OWNER_PASSWORD",
            "AGENTTEAMS_CONSOLE_SESSION_SECRET")) {
      secrets.put(password, random());
    }
    return secrets;
  }

  /** A new {@code .env}. */
  public static String render() {
    return render(generate());
  }

  /** The {@code .env} of the given settings: comments, then one single-quoted setting a line. */
  public static String render(Map<String, String> secrets) {
    StringBuilder env =
        new StringBuilder()
            .append("# Agent Teams secrets for docker compose, made ")
            .append(Instant.now())
            .append(".\n# Keep this file private; docs/security-model.md says who holds")
            .append(" which key.\n");
    secrets.forEach((name, value) -> env.append(name).append("='").append(value).append("'\n"));
    return env.toString();
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
