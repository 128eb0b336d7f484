package io.agentteams.platform.token;

import com.nimbusds.jose.JOSEObjectType;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one kind of token carries besides its caller's claims, written when it is minted and
 * required when it is verified.
 *
 * @param type the JOSE {@code typ} header, so that no other kind of token passes for this one; null
 *     for none (the console's cookies), which no header check then asks for
 * @param issuer the {@code iss} claim; null for none
 * @param audiences the {@code aud} claim, all of them written; a token is accepted when it names at
 *     least one; empty for none
 * @param clockSkew how long after its expiry a token is still accepted, for clocks that differ
 */
public record TokenFormat(
    @Nullable JOSEObjectType type,
    @Nullable String issuer,
    List<String> audiences,
    Duration clockSkew) {

  /** The skew allowed between the clocks of the gateway and the services. */
  public static final Duration CLOCK_SKEW = Duration.ofSeconds(30);

  public TokenFormat {
    audiences = List.copyOf(audiences);
    if (clockSkew.isNegative()) {
      throw new IllegalArgumentException("negative clock skew");
    }
  }

  /** Tokens of a type, from an issuer, for audiences, with the usual clock skew. */
  public static TokenFormat of(JOSEObjectType type, String issuer, List<String> audiences) {
    if (audiences.isEmpty()) {
      throw new IllegalArgumentException("no audience");
    }
    return new TokenFormat(type, issuer, audiences, CLOCK_SKEW);
  }

  /** Tokens that only this process reads back (cookies): no type, issuer or audience, no skew. */
  public static TokenFormat unaddressed() {
    return new TokenFormat(null, null, List.of(), Duration.ZERO);
  }
}
