package io.agentteams.platform.outbound;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Decides whether a user-supplied URL may be called and whether an address its host resolved to may
 * be connected to. Plain Java and free of I/O: {@link #checkUrl} never resolves a name, and {@link
 * #checkResolved} judges addresses someone else resolved — so the decision can be tested over any
 * address without connecting anywhere.
 *
 * <p>Only {@code http} and {@code https} URLs with a host and without credentials are callable. A
 * host written as a number in any form other than four decimal parts ({@code 2130706433}, {@code
 * 0x7f.1}, {@code 0177.0.0.1}, {@code 127.1}) is refused as ambiguous, because resolvers and
 * browsers read such forms differently. IPv6 literals may not carry a zone, nor be IPv4-mapped or
 * IPv4-compatible. Every address must be public ({@link AddressRanges}) unless the operator allows
 * its block, or allows the host by name.
 */
public final class OutboundPolicy {

  private static final Pattern NUMERIC_LABEL = Pattern.compile("(0[xX][0-9a-fA-F]*|[0-9]+)");
  private static final Pattern CANONICAL_V4 =
      Pattern.compile(
          "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final Pattern HOST_NAME =
      Pattern.compile("[a-z0-9]([a-z0-9_-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9_-]*[a-z0-9])?)*\\.?");

  /** Names that always mean this machine or a cloud's metadata service. */
  private static final Set<String> LOCAL_NAMES =
      Set.of("localhost", "metadata.google.internal", "metadata", "instance-data");

  private final Set<String> allowedHosts;
  private final List<Cidr> allowedBlocks;

  /**
   * @param allowedHosts host names the operator allows whatever they resolve to (exact,
   *     case-insensitive)
   * @param allowedBlocks address blocks the operator allows even where they are not public
   */
  public OutboundPolicy(Collection<String> allowedHosts, Collection<Cidr> allowedBlocks) {
    this.allowedHosts =
        allowedHosts.stream()
            .map(host -> stripDot(host.trim().toLowerCase(Locale.ROOT)))
            .filter(host -> !host.isEmpty())
            .collect(Collectors.toUnmodifiableSet());
    this.allowedBlocks = List.copyOf(allowedBlocks);
  }

  /** The policy that allows only public addresses. */
  public static OutboundPolicy publicOnly() {
    return new OutboundPolicy(Set.of(), List.of());
  }

  /**
   * The URL as it may be called: its form is checked, and a host written as an address is checked
   * as an address. A host name is not resolved here; its addresses are checked by {@link
   * #checkResolved} at every connection.
   *
   * @throws OutboundRefused naming the first rule the URL breaks
   */
  public URI checkUrl(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new OutboundRefused("'" + url + "' is not a URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new OutboundRefused(
          "only http and https URLs may be called, not '"
              + (scheme.isEmpty() ? url : scheme)
              + "'");
    }
    if (uri.getRawUserInfo() != null) {
      throw new OutboundRefused("a URL to be called may not carry credentials before its host");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty()) {
      String authority = uri.getRawAuthority();
      if (authority != null && !authority.isEmpty()) {
        // java.net.URI reads no host from forms such as "0.0" or "0x7f.1": say why they are
        // refused rather than only that no host was found.
        checkHost(authority.replaceFirst(":[0-9]*$", ""));
      }
      throw new OutboundRefused("'" + url + "' names no host");
    }
    checkHost(host);
    return uri;
  }

  /**
   * Checks a host as it appears in a URL (an IPv6 literal in brackets).
   *
   * @throws OutboundRefused when the host's form or its literal address is not allowed
   */
  public void checkHost(String rawHost) {
    String host = rawHost.toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      checkIpv6Literal(host);
      return;
    }
    if (!HOST_NAME.matcher(host).matches()) {
      throw new OutboundRefused("'" + rawHost + "' is not a host name or an IP address");
    }
    String name = stripDot(host);
    if (looksNumeric(name)) {
      if (!CANONICAL_V4.matcher(name).matches()) {
        throw new OutboundRefused(
            "'"
                + rawHost
                + "' is an ambiguous numeric host; write an IPv4 address as four decimal parts");
      }
      checkAddress(name, Cidr.literal(name));
      return;
    }
    if (allowedHosts.contains(name)) {
      return;
    }
    if (LOCAL_NAMES.contains(name) || name.endsWith(".localhost")) {
      throw new OutboundRefused("'" + rawHost + "' names this machine or a metadata service");
    }
  }

  /**
   * Checks every address a host resolved to; the call may go ahead only if all of them pass.
   *
   * @return the addresses, all allowed
   * @throws OutboundRefused naming the first address that is not allowed, or when there is none
   */
  public List<InetAddress> checkResolved(String host, List<InetAddress> addresses) {
    if (addresses.isEmpty()) {
      throw new OutboundRefused("'" + host + "' resolves to no address");
    }
    for (InetAddress address : addresses) {
      checkAddress(host, address.getAddress());
    }
    return List.copyOf(addresses);
  }

  /** Why an address (network byte order) may not be reached from this host, or empty. */
  public Optional<String> refusal(String host, byte[] address) {
    if (allowedHosts.contains(stripDot(host.toLowerCase(Locale.ROOT)))) {
      return Optional.empty();
    }
    for (Cidr block : allowedBlocks) {
      if (block.contains(address)) {
        return Optional.empty();
      }
    }
    return AddressRanges.refusal(address);
  }

  private void checkAddress(String host, byte[] address) {
    Optional<String> why = refusal(host, address);
    if (why.isPresent()) {
      throw new OutboundRefused(describe(host, address) + " is " + why.get());
    }
  }

  private void checkIpv6Literal(String host) {
    if (!host.endsWith("]")) {
      throw new OutboundRefused("'" + host + "' is not an IPv6 literal");
    }
    String literal = host.substring(1, host.length() - 1);
    if (literal.indexOf('%') >= 0) {
      throw new OutboundRefused("'" + host + "' carries an IPv6 zone; zones are link-local");
    }
    if (!literal.matches("[0-9a-f:.]+") || literal.indexOf(':') < 0) {
      throw new OutboundRefused("'" + host + "' is not an IPv6 literal");
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new OutboundRefused("'" + host + "' is not an IPv6 literal");
    }
    if (address instanceof Inet4Address) {
      // The JDK turns an IPv4-mapped literal into its IPv4 address; the form itself is refused.
      throw new OutboundRefused(host + " is IPv4-mapped IPv6 (::ffff:0:0/96)");
    }
    checkAddress(literal, address.getAddress());
  }

  /**
   * Whether a host is an IPv4 attempt as URL parsers read it: its last label is a number (decimal,
   * or hexadecimal with 0x), so it is never a DNS name.
   */
  private static boolean looksNumeric(String host) {
    int dot = host.lastIndexOf('.');
    String last = dot < 0 ? host : host.substring(dot + 1);
    return !last.isEmpty() && NUMERIC_LABEL.matcher(last).matches();
  }

  private static String stripDot(String host) {
    return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
  }

  private static String describe(String host, byte[] address) {
    String text;
    try {
      text = InetAddress.getByAddress(address).getHostAddress();
    } catch (UnknownHostException e) {
      text = host;
    }
    return text.equals(host) ? text : "'" + host + "' (" + text + ")";
  }
}
