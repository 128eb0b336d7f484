package io.agentteams.gateway.headers;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.adapter.ForwardedHeaderTransformer;

/**
 * Applies {@code Forwarded} and {@code X-Forwarded-*} headers (scheme, host, port, prefix, client
 * address) only to requests whose peer is one of the configured proxies, before any filter sees the
 * request; from anyone else those headers are removed, so a client cannot claim TLS or another
 * address. The request's scheme then decides the console cookie's {@code Secure} flag and {@code
 * __Host-} prefix, HSTS, and the OpenID Connect redirect URI. Named as the bean the web handler
 * looks for.
 */
@Component(TrustedProxies.BEAN)
public class TrustedProxies extends ForwardedHeaderTransformer {

  /** The bean name the web handler applies as its forwarded-header transformer. */
  public static final String BEAN = "forwardedHeaderTransformer";

  private final List<Cidr> trusted;
  private final ForwardedHeaderTransformer remover = new ForwardedHeaderTransformer();

  public TrustedProxies(ForwardedHeadersProperties properties) {
    this.trusted = properties.trustedProxies().stream().map(Cidr::parse).toList();
    remover.setRemoveOnly(true);
  }

  @Override
  public ServerHttpRequest apply(ServerHttpRequest request) {
    return trusts(request.getRemoteAddress()) ? super.apply(request) : remover.apply(request);
  }

  /** Whether the peer is a trusted proxy. */
  boolean trusts(@Nullable InetSocketAddress peer) {
    if (peer == null || peer.getAddress() == null) {
      return false;
    }
    InetAddress address = peer.getAddress();
    return trusted.stream().anyMatch(cidr -> cidr.contains(address));
  }

  /** An address range: an address and how many of its leading bits a match shares. */
  record Cidr(byte[] network, int bits) {

    /** Parses {@code 10.0.0.0/8}, {@code fd00::/8} or a single address; refuses host names. */
    static Cidr parse(String text) {
      String value = text.strip();
      int slash = value.indexOf('/');
      String host = slash < 0 ? value : value.substring(0, slash);
      if (!host.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
        throw new IllegalArgumentException("not an address range: " + text);
      }
      byte[] network;
      try {
        network = InetAddress.getByName(host).getAddress();
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("not an address range: " + text, e);
      }
      int bits;
      try {
        bits = slash < 0 ? network.length * 8 : Integer.parseInt(value.substring(slash + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not an address range: " + text, e);
      }
      if (bits < 0 || bits > network.length * 8) {
        throw new IllegalArgumentException("not an address range: " + text);
      }
      return new Cidr(network, bits);
    }

    boolean contains(InetAddress address) {
      byte[] candidate = address.getAddress();
      if (candidate.length != network.length) {
        return false;
      }
      for (int bit = 0; bit < bits; bit++) {
        int mask = 0x80 >> (bit % 8);
        if ((candidate[bit / 8] & mask) != (network[bit / 8] & mask)) {
          return false;
        }
      }
      return true;
    }
  }
}
