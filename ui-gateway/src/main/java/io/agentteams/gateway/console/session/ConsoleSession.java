package io.agentteams.gateway.console.session;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One browser's session with the console, carried in a signed cookie.
 *
 * @param id a random id; a new one is made at every sign-in and sign-out, and CSRF tokens are bound
 *     to it
 * @param ownerId the signed-in person, or null before sign-in
 * @param provider how they signed in: {@code dev} or {@code oidc}
 * @param idToken the provider's ID token, kept for signing out at the provider
 * @param expiresAt when the session ends
 */
public record ConsoleSession(
    String id,
    @Nullable String ownerId,
    @Nullable String provider,
    @Nullable String idToken,
    Instant expiresAt) {

  /** Whether someone is signed in. */
  public boolean signedIn() {
    return ownerId != null;
  }
}
