package io.agentteams.platform.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The SSRF guard's decision, over address ranges and the forms a URL can hide an address in. Only
 * decisions are tested here: nothing is resolved or connected to.
 */
class OutboundPolicyTest {

  private final OutboundPolicy publicOnly = OutboundPolicy.publicOnly();

  // ---- IPv4 ----

  @Property
  void refusesEveryAddressOfEveryNonPublicIpv4Block(@ForAll("nonPublicV4") byte[] address) {
    String dotted = dotted(address);
    assertThatThrownBy(() -> publicOnly.checkUrl("http://" + dotted + "/hook"))
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining(dotted);
  }

  @Property
  void acceptsPublicIpv4Addresses(@ForAll("publicV4") byte[] address) {
    assertThat(publicOnly.checkUrl("https://" + dotted(address) + ":8443/a2a").getHost())
        .isEqualTo(dotted(address));
  }

  @Property
  void refusesEveryNumericHostNotWrittenAsFourDecimalParts(
      @ForAll("anyV4") byte[] address, @ForAll("legacyForm") int form) {
    String host = legacy(address, form);
    assertThatThrownBy(() -> publicOnly.checkUrl("http://" + host + "/"))
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining("ambiguous numeric host");
  }

  @Example
  void refusesTheClassicAmbiguousFormsOfLoopbackAndMetadata() {
    for (String host :
        List.of(
            "2130706433",
            "0x7f000001",
            "0177.0.0.1",
            "0x7f.0.0.1",
            "127.1",
            "127.0.1",
            "017700000001",
            "169.254.43518",
            "0251.0376.0251.0376",
            "127.000.000.001",
            "0.0.0.0")) {
      assertThatThrownBy(() -> publicOnly.checkUrl("http://" + host + "/latest/meta-data"))
          .as(host)
          .isInstanceOf(OutboundRefused.class);
    }
  }

  @Example
  void refusesMetadataAndLocalNamesButLeavesOtherNamesToResolution() {
    assertThatThrownBy(() -> publicOnly.checkUrl("http://169.254.169.254/latest/meta-data"))
        .hasMessageContaining("metadata");
    assertThatThrownBy(() -> publicOnly.checkUrl("http://metadata.google.internal/"))
        .isInstanceOf(OutboundRefused.class);
    assertThatThrownBy(() -> publicOnly.checkUrl("http://LocalHost./"))
        .isInstanceOf(OutboundRefused.class);
    assertThatThrownBy(() -> publicOnly.checkUrl("http://api.localhost/"))
        .isInstanceOf(OutboundRefused.class);
    assertThat(publicOnly.checkUrl("https://agents.example.com/hook").getHost())
        .isEqualTo("agents.example.com");
  }

  // ---- URL forms ----

  @Property
  void refusesCredentialsBeforeTheHostWhateverTheyHide(
      @ForAll("publicV4") byte[] decoy, @ForAll("nonPublicV4") byte[] target) {
    for (String url :
        List.of(
            "http://" + dotted(decoy) + "@" + dotted(target) + "/",
            "http://user:pass@" + dotted(decoy) + "/",
            "http://" + dotted(decoy) + ":80@" + dotted(target) + ":8080/x",
            "https://a%40b@" + dotted(decoy) + "/")) {
      assertThatThrownBy(() -> publicOnly.checkUrl(url))
          .as(url)
          .isInstanceOf(OutboundRefused.class);
    }
  }

  @Property
  void aFragmentOrQueryNeverChangesTheHostThatIsChecked(@ForAll("nonPublicV4") byte[] target) {
    for (String url :
        List.of(
            "http://" + dotted(target) + "#@agents.example.com/",
            "http://" + dotted(target) + "?@agents.example.com/",
            "http://" + dotted(target) + "/@agents.example.com/")) {
      assertThatThrownBy(() -> publicOnly.checkUrl(url))
          .as(url)
          .isInstanceOf(OutboundRefused.class);
    }
  }

  @Property
  void refusesEverySchemeButHttpAndHttps(@ForAll("schemes") String scheme) {
    assertThatThrownBy(() -> publicOnly.checkUrl(scheme + "://agents.example.com/hook"))
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining("only http and https");
  }

  @Example
  void refusesUrlsWithoutAHostOrThatAreNoUrls() {
    for (String url :
        List.of(
            "http:///hook",
            "http://%31%32%37.0.0.1/",
            "agents.example.com/hook",
            "http://agents example.com/",
            "http://\\\\127.0.0.1/",
            "http://[::1/",
            "")) {
      assertThatThrownBy(() -> publicOnly.checkUrl(url))
          .as(url)
          .isInstanceOf(OutboundRefused.class);
    }
  }

  // ---- IPv6 ----

  @Property
  void refusesEveryAddressOfEveryNonPublicIpv6Block(@ForAll("nonPublicV6") byte[] address)
      throws UnknownHostException {
    String literal = InetAddress.getByAddress(address).getHostAddress();
    assertThatThrownBy(() -> publicOnly.checkUrl("http://[" + literal + "]:8080/"))
        .isInstanceOf(OutboundRefused.class);
  }

  @Property
  void refusesIpv4MappedAndCompatibleFormsOfAnyAddress(@ForAll("anyV4") byte[] address) {
    String v4 = dotted(address);
    for (String host : List.of("[::ffff:" + v4 + "]", "[::" + v4 + "]", "[64:ff9b::" + v4 + "]")) {
      assertThatThrownBy(() -> publicOnly.checkUrl("http://" + host + "/"))
          .as(host)
          .isInstanceOf(OutboundRefused.class);
    }
  }

  @Property
  void refusesIpv6Zones(@ForAll @IntRange(min = 0, max = 0xffff) int suffix) {
    String host = "[fe80::" + Integer.toHexString(suffix) + "%25eth0]";
    assertThatThrownBy(() -> publicOnly.checkUrl("http://" + host + "/"))
        .isInstanceOf(OutboundRefused.class);
    assertThatThrownBy(
            () -> publicOnly.checkHost("[2606:4700::" + Integer.toHexString(suffix) + "%eth0]"))
        .hasMessageContaining("zone");
  }

  @Example
  void acceptsAPublicIpv6Literal() {
    assertThat(publicOnly.checkUrl("https://[2606:4700:4700::1111]/a2a").getHost())
        .isEqualTo("[2606:4700:4700::1111]");
  }

  // ---- resolved addresses and the operator's allow-list ----

  @Property
  void aNameIsRefusedWhenAnyOfItsAddressesIsNotPublic(
      @ForAll("publicV4") byte[] good, @ForAll("nonPublicV4") byte[] bad)
      throws UnknownHostException {
    List<InetAddress> addresses =
        List.of(InetAddress.getByAddress(good), InetAddress.getByAddress(bad));
    assertThatThrownBy(() -> publicOnly.checkResolved("agents.example.com", addresses))
        .isInstanceOf(OutboundRefused.class)
        .hasMessageContaining(dotted(bad));
    assertThat(
            publicOnly.checkResolved("agents.example.com", List.of(InetAddress.getByAddress(good))))
        .hasSize(1);
  }

  @Property
  void anAllowedBlockAdmitsItsAddressesAndNothingElse(
      @ForAll @IntRange(min = 1, max = 254) int last) throws UnknownHostException {
    OutboundPolicy loopbackOne = new OutboundPolicy(Set.of(), List.of(Cidr.parse("127.0.0.1")));
    assertThat(loopbackOne.checkUrl("http://127.0.0.1:18800/hook").getPort()).isEqualTo(18800);
    if (last != 1) {
      assertThatThrownBy(() -> loopbackOne.checkUrl("http://127.0.0." + last + "/"))
          .isInstanceOf(OutboundRefused.class);
    }
    assertThat(
            loopbackOne.checkResolved(
                "agent.test", List.of(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))))
        .hasSize(1);
  }

  @Example
  void anAllowedHostNameIsCalledWhateverItResolvesTo() throws UnknownHostException {
    OutboundPolicy internal = new OutboundPolicy(Set.of("Agents.Internal."), List.of());
    InetAddress inside = InetAddress.getByAddress(new byte[] {10, 1, 2, 3});
    assertThat(internal.checkResolved("agents.internal", List.of(inside))).containsExactly(inside);
    assertThatThrownBy(() -> internal.checkResolved("other.internal", List.of(inside)))
        .isInstanceOf(OutboundRefused.class);
    assertThatThrownBy(() -> internal.checkResolved("other.internal", List.of()))
        .hasMessageContaining("resolves to no address");
  }

  // ---- generators ----

  @Provide
  Arbitrary<byte[]> anyV4() {
    return Arbitraries.integers().map(OutboundPolicyTest::v4);
  }

  @Provide
  Arbitrary<byte[]> nonPublicV4() {
    List<Cidr> blocks =
        AddressRanges.REFUSED.stream()
            .map(AddressRanges.Range::block)
            .filter(b -> b.network().length == 4)
            .toList();
    return Combinators.combine(Arbitraries.of(blocks), Arbitraries.integers())
        .as((block, random) -> inside(block, v4(random)));
  }

  @Provide
  Arbitrary<byte[]> publicV4() {
    return anyV4().filter(address -> AddressRanges.refusal(address).isEmpty());
  }

  @Provide
  Arbitrary<byte[]> nonPublicV6() {
    List<Cidr> blocks =
        AddressRanges.REFUSED.stream()
            .map(AddressRanges.Range::block)
            .filter(b -> b.network().length == 16)
            .toList();
    return Combinators.combine(
            Arbitraries.of(blocks), Arbitraries.bytes().array(byte[].class).ofSize(16))
        .as(OutboundPolicyTest::inside)
        // The JDK reads ::ffff:a.b.c.d as IPv4; the mapped form has its own property.
        .filter(address -> !Cidr.parse("::ffff:0:0/96").contains(address));
  }

  @Provide
  Arbitrary<Integer> legacyForm() {
    return Arbitraries.integers().between(0, 5);
  }

  @Provide
  Arbitrary<String> schemes() {
    return Arbitraries.oneOf(
            Arbitraries.of("file", "ftp", "gopher", "ws", "wss", "jar", "dict", "ldap", "data"),
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8))
        .filter(s -> !s.equals("http") && !s.equals("https"));
  }

  // ---- helpers ----

  private static byte[] v4(int bits) {
    return new byte[] {
      (byte) (bits >>> 24), (byte) (bits >>> 16), (byte) (bits >>> 8), (byte) bits
    };
  }

  /** Keeps the block's prefix bits and takes the rest from {@code random}. */
  private static byte[] inside(Cidr block, byte[] random) {
    byte[] network = block.network();
    byte[] out = random.clone();
    for (int bit = 0; bit < block.prefix(); bit++) {
      int i = bit / 8;
      int mask = 0x80 >>> (bit % 8);
      out[i] = (byte) ((out[i] & ~mask) | (network[i] & mask));
    }
    return out;
  }

  private static String dotted(byte[] a) {
    return (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff);
  }

  /** The address written as a URL parser other than ours might still read it. */
  private static String legacy(byte[] a, int form) {
    long value =
        ((a[0] & 0xffL) << 24) | ((a[1] & 0xff) << 16) | ((a[2] & 0xff) << 8) | (a[3] & 0xff);
    return switch (form) {
      case 0 -> Long.toString(value);
      case 1 -> "0x" + Long.toHexString(value);
      case 2 -> "0" + Long.toOctalString(value);
      case 3 ->
          "0"
              + Integer.toOctalString(a[0] & 0xff)
              + "."
              + (a[1] & 0xff)
              + "."
              + (a[2] & 0xff)
              + "."
              + (a[3] & 0xff);
      case 4 ->
          (a[0] & 0xff) + "." + (((a[1] & 0xff) << 16) | ((a[2] & 0xff) << 8) | (a[3] & 0xff));
      default ->
          "0x"
              + Integer.toHexString(a[0] & 0xff)
              + "."
              + (a[1] & 0xff)
              + "."
              + (a[2] & 0xff)
              + "."
              + (a[3] & 0xff);
    };
  }
}
