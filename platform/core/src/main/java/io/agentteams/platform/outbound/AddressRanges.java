package io.agentteams.platform.outbound;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The address blocks an outbound call must never reach unless an operator allows them: everything
 * that is not a public unicast address on the internet (IANA's special-purpose registries), and the
 * IPv6 forms that carry an IPv4 address inside them.
 */
public final class AddressRanges {

  /** A refused block and why. */
  public record Range(Cidr block, String why) {}

  /** Every refused block, IPv4 then IPv6. */
  public static final List<Range> REFUSED =
      List.of(
          range("0.0.0.0/8", "'this network' (0.0.0.0/8)"),
          range("10.0.0.0/8", "private (10.0.0.0/8)"),
          range("100.64.0.0/10", "carrier-grade NAT (100.64.0.0/10)"),
          range("127.0.0.0/8", "loopback (127.0.0.0/8)"),
          range("169.254.0.0/16", "link-local and cloud metadata (169.254.0.0/16)"),
          range("172.16.0.0/12", "private (172.16.0.0/12)"),
          range("192.0.0.0/24", "IETF protocol assignments (192.0.0.0/24)"),
          range("192.0.2.0/24", "documentation (192.0.2.0/24)"),
          range("192.88.99.0/24", "6to4 relay anycast (192.88.99.0/24)"),
          range("192.168.0.0/16", "private (192.168.0.0/16)"),
          range("198.18.0.0/15", "benchmarking (198.18.0.0/15)"),
          range("198.51.100.0/24", "documentation (198.51.100.0/24)"),
          range("203.0.113.0/24", "documentation (203.0.113.0/24)"),
          range("224.0.0.0/4", "multicast (224.0.0.0/4)"),
          range("240.0.0.0/4", "reserved and broadcast (240.0.0.0/4)"),
          range("::/128", "unspecified (::)"),
          range("::1/128", "loopback (::1)"),
          range("::ffff:0:0/96", "IPv4-mapped IPv6 (::ffff:0:0/96)"),
          range("::/96", "IPv4-compatible IPv6 (::/96)"),
          range("64:ff9b::/96", "NAT64, which reaches IPv4 addresses (64:ff9b::/96)"),
          range("64:ff9b:1::/48", "local-use NAT64 (64:ff9b:1::/48)"),
          range("100::/64", "discard-only (100::/64)"),
          range("2001::/32", "Teredo, which carries an IPv4 address (2001::/32)"),
          range("2001:db8::/32", "documentation (2001:db8::/32)"),
          range("2001::/23", "IETF protocol assignments (2001::/23)"),
          range("2002::/16", "6to4, which carries an IPv4 address (2002::/16)"),
          range("fc00::/7", "unique-local (fc00::/7)"),
          range("fe80::/10", "link-local (fe80::/10)"),
          range("fec0::/10", "site-local (fec0::/10)"),
          range("ff00::/8", "multicast (ff00::/8)"));

  private AddressRanges() {}

  private static Range range(String block, String why) {
    return new Range(Cidr.parse(block), why);
  }

  /** Why the address is not public, or empty when it is a public unicast address. */
  public static Optional<String> refusal(InetAddress address) {
    return refusal(address.getAddress());
  }

  /** Why the address (in network byte order) is not public, or empty when it is. */
  public static Optional<String> refusal(byte[] address) {
    for (Range range : REFUSED) {
      if (range.block().contains(address)) {
        return Optional.of(range.why());
      }
    }
    return Optional.empty();
  }
}
