package io.agentteams.platform.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * A block of IPv4 or IPv6 addresses, written {@code address/prefix} (a bare address is a block of
 * one).
 *
 * @param network the block's first address, in network byte order
 * @param prefix how many leading bits every address of the block shares
 */
public record Cidr(byte[] network, int prefix) {

  public Cidr {
    network = network.clone();
    if (network.length != 4 && network.length != 16) {
      throw new IllegalArgumentException("a block is IPv4 or IPv6");
    }
    if (prefix < 0 || prefix > network.length * 8) {
      throw new IllegalArgumentException("prefix " + prefix + " out of range");
    }
  }

  /**
   * The block a text names: an IPv4 or IPv6 literal, optionally with {@code /prefix}.
   *
   * @throws IllegalArgumentException when the text is no such block
   */
  public static Cidr parse(String text) {
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    int slash = trimmed.indexOf('/');
    String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
    byte[] bytes = literal(address);
    int prefix = bytes.length * 8;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(trimmed.substring(slash + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a block: " + text, e);
      }
    }
    return new Cidr(bytes, prefix);
  }

  /** Whether the address lies in the block (IPv4 and IPv6 blocks never contain each other). */
  public boolean contains(InetAddress address) {
    return contains(address.getAddress());
  }

  /** Whether the address, in network byte order, lies in the block. */
  public boolean contains(byte[] address) {
    if (address.length != network.length) {
      return false;
    }
    int full = prefix / 8;
    for (int i = 0; i < full; i++) {
      if (address[i] != network[i]) {
        return false;
      }
    }
    int rest = prefix % 8;
    if (rest == 0) {
      return true;
    }
    int mask = 0xff << (8 - rest) & 0xff;
    return (address[full] & mask) == (network[full] & mask);
  }

  @Override
  public byte[] network() {
    return network.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Cidr cidr
        && prefix == cidr.prefix
        && java.util.Arrays.equals(network, cidr.network);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(network) + prefix;
  }

  @Override
  public String toString() {
    try {
      return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The bytes of an address literal; never a name lookup. */
  static byte[] literal(String address) {
    boolean v4 =
        address.matches(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    boolean v6 = address.indexOf(':') >= 0 && address.matches("[0-9a-f:.]+");
    if (!v4 && !v6) {
      throw new IllegalArgumentException("not an IP address literal: " + address);
    }
    try {
      // A literal of these characters is parsed, never looked up.
      byte[] bytes = InetAddress.getByName(address).getAddress();
      if (v6 && bytes.length == 4) {
        // The JDK reads an IPv4-mapped IPv6 literal as its IPv4 address; keep the IPv6 form.
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(bytes, 0, mapped, 12, 4);
        return mapped;
      }
      return bytes;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IP address literal: " + address, e);
    }
  }
}
