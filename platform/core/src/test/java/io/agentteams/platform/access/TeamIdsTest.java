package io.agentteams.platform.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Team ids carry the millisecond they were minted in, and nothing else can be mistaken for one. */
class TeamIdsTest {

  @Property
  void aMintedIdIsAVersion7UuidThatTellsWhenItWasMinted(
      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFF_FFFFL) long millis) {
    Instant at = Instant.ofEpochMilli(millis);
    UUID id = TeamIds.mint(at);
    assertThat(id.version()).isEqualTo(7);
    assertThat(id.variant()).isEqualTo(2);
    assertThat(TeamIds.mintedAt(id)).contains(at);
    assertThat(UUID.fromString(id.toString())).isEqualTo(id);
  }

  @Property
  void idsMintedLaterSortAfterEarlierOnes(
      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFF_FFFEL) long millis) {
    UUID earlier = TeamIds.mint(Instant.ofEpochMilli(millis));
    UUID later = TeamIds.mint(Instant.ofEpochMilli(millis + 1));
    assertThat(later.toString()).isGreaterThan(earlier.toString());
  }

  @Property
  void aRandomUuidTellsNoMintingTime(@ForAll long most, @ForAll long least) {
    UUID random = UUID.randomUUID();
    assertThat(TeamIds.mintedAt(random)).isEmpty();
    UUID any = new UUID(most, least);
    if (any.version() != 7 || any.variant() != 2) {
      assertThat(TeamIds.mintedAt(any)).isEmpty();
    }
  }
}
