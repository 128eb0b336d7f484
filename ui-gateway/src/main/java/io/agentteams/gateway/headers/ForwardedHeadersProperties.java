package io.agentteams.gateway.headers;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Which proxies the gateway believes about the original request, and how long browsers keep to TLS.
 *
 * @param trustedProxies the addresses (CIDRs, e.g. {@code 10.0.0.0/8}, or single addresses) whose
 *     {@code Forwarded} and {@code X-Forwarded-*} headers are applied; empty (the default) trusts
 *     none, and those headers are then removed from every request
 * @param hstsMaxAge the {@code max-age} of {@code Strict-Transport-Security}, sent on every answer
 *     to a request that came over TLS (directly or as a trusted proxy says)
 */
@Validated
@ConfigurationProperties("agentteams.gateway.forwarded")
public record ForwardedHeadersProperties(
    @DefaultValue List<String> trustedProxies, @DefaultValue("730d") Duration hstsMaxAge) {

  public ForwardedHeadersProperties {
    trustedProxies = List.copyOf(trustedProxies);
    trustedProxies.forEach(TrustedProxies.Cidr::parse);
    if (hstsMaxAge.isNegative()) {
      throw new IllegalArgumentException("agentteams.gateway.forwarded.hsts-max-age is negative");
    }
  }

  /** The {@code Strict-Transport-Security} value: this host and its subdomains. */
  public String hsts() {
    return "max-age=" + hstsMaxAge.toSeconds() + "; includeSubDomains";
  }
}
