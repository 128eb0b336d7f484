package io.agentteams.platform.outbound;

import io.netty.channel.ChannelOption;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Builds the HTTP clients for calls to user-supplied URLs: every request's URL is checked by the
 * {@link OutboundPolicy} before it leaves, every connection resolves and checks its addresses
 * through the {@link GuardedResolverGroup}, redirects are never followed, TLS certificates and host
 * names are verified (the JDK's trust store), and connect time, response time and response size are
 * bounded.
 */
public final class OutboundHttp {

  /**
   * The bounds of one kind of call.
   *
   * @param connectTimeout the longest a connection may take to open
   * @param responseTimeout the longest to wait for a response (and between reads of it); null for
   *     streams that may stay idle, which bound their idle time themselves
   * @param maxResponseBytes the largest response body (or stream event) read
   */
  public record Limits(
      Duration connectTimeout, @Nullable Duration responseTimeout, int maxResponseBytes) {}

  private final OutboundPolicy policy;
  private final HostLookup lookup;
  private final Executor blocking;
  private final GuardedResolverGroup resolver;

  public OutboundHttp(OutboundPolicy policy, HostLookup lookup, Executor blocking) {
    this.policy = policy;
    this.lookup = lookup;
    this.blocking = blocking;
    this.resolver = new GuardedResolverGroup(policy, lookup, blocking);
  }

  /**
   * Checks a URL someone is registering: its form, and every address its host resolves to now. A
   * host that does not resolve yet is accepted (it is checked again on every call); one that
   * resolves to any refused address is not.
   *
   * @return the URL, or an error {@link OutboundRefused} that says why it may not be called
   */
  public Mono<URI> vet(String url) {
    URI uri;
    try {
      uri = policy.checkUrl(url);
    } catch (OutboundRefused refused) {
      return Mono.error(refused);
    }
    String host = uri.getHost();
    if (host.startsWith("[") || Character.isDigit(host.charAt(host.length() - 1))) {
      // An address literal, already checked as an address.
      return Mono.just(uri);
    }
    return Mono.<URI>create(
        sink ->
            blocking.execute(
                () -> {
                  try {
                    policy.checkResolved(host, lookup.lookup(host));
                    sink.success(uri);
                  } catch (UnknownHostException unresolved) {
                    sink.success(uri);
                  } catch (RuntimeException refused) {
                    sink.error(refused);
                  }
                }));
  }

  /** The policy every call is checked against. */
  public OutboundPolicy policy() {
    return policy;
  }

  /** A client with these bounds; requests to URLs the policy refuses fail with OutboundRefused. */
  public WebClient client(String name, Limits limits) {
    HttpClient http =
        HttpClient.create(
                ConnectionProvider.builder("outbound-" + name).maxConnections(200).build())
            .resolver(resolver)
            .followRedirect(false)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) limits.connectTimeout().toMillis());
    if (limits.responseTimeout() != null) {
      http = http.responseTimeout(limits.responseTimeout());
    }
    return WebClient.builder()
        .clientConnector(new ReactorClientHttpConnector(http))
        .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(limits.maxResponseBytes()))
        .filter(checkingUrls())
        .build();
  }

  private ExchangeFilterFunction checkingUrls() {
    return (request, next) -> {
      ClientRequest checked = request;
      try {
        policy.checkUrl(request.url().toString());
      } catch (OutboundRefused refused) {
        return Mono.error(refused);
      }
      return next.exchange(checked);
    };
  }
}
