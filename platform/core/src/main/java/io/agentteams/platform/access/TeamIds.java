package io.agentteams.platform.access;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Team ids are time-ordered UUIDs (RFC 9562 version 7): 48 bits of the minting millisecond, then
 * random bits. A service whose roster projection has not yet learned of a team can tell from the id
 * alone whether the team was created moments ago (and its creation is still on the way) or long ago
 * (and it does not exist here), without asking the team service.
 */
public final class TeamIds {

  private static final SecureRandom RANDOM = new SecureRandom();

  private TeamIds() {}

  /** A new team id minted at {@code now}. */
  public static UUID mint(Instant now) {
    long millis = now.toEpochMilli();
    long randA = RANDOM.nextInt(1 << 12);
    long msb = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | randA;
    long lsb = (RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }

  /** When a version 7 id was minted; empty for any other kind of UUID (e.g. random ones). */
  public static Optional<Instant> mintedAt(UUID id) {
    if (id.version() != 7 || id.variant() != 2) {
      return Optional.empty();
    }
    return Optional.of(Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16));
  }
}
