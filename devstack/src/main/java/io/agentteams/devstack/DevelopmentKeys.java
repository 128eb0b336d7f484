package io.agentteams.devstack;

import io.agentteams.platform.identity.TokenKeys;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DEVELOPMENT ONLY: the keys of one embedded stack, made afresh each time it starts and never
 * written anywhere, handed to each part as a deployment would (the services get the gateway's
 * public keys only; the gateway its private and edge keys; the scheduler its dispatch key). Tokens
 * therefore do not outlive the stack. No service has keys of its own by default: outside this stack
 * (and the tests) every key must be given.
 *
 * @param internalSigning the gateway's internal signing keys
 * @param edge the gateway's edge keys
 * @param dispatchSigning the scheduler's dispatch signing keys
 */
public record DevelopmentKeys(String internalSigning, String edge, String dispatchSigning) {

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
