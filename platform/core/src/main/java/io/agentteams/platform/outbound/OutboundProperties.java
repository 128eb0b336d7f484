package io.agentteams.platform.outbound;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What outbound calls to user-supplied URLs (webhooks, A2A agents and their cards, A2A push
 * notifications) may reach beyond public addresses.
 *
 * @param allowHosts host names allowed whatever they resolve to, e.g. an internal agent gateway
 * @param allowCidrs address blocks allowed although they are not public, e.g. {@code 10.1.2.0/24};
 *     a bare address is a block of one
 */
@Validated
@ConfigurationProperties("agentteams.outbound")
public record OutboundProperties(
    @DefaultValue List<String> allowHosts, @DefaultValue List<String> allowCidrs) {

  public OutboundProperties {
    allowHosts = List.copyOf(allowHosts);
    allowCidrs = List.copyOf(allowCidrs);
    for (String cidr : allowCidrs) {
      try {
        Cidr.parse(cidr);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "agentteams.outbound.allow-cidrs: '" + cidr + "' is not an address block", e);
      }
    }
  }

  /** The policy these settings describe. */
  public OutboundPolicy policy() {
    return new OutboundPolicy(allowHosts, allowCidrs.stream().map(Cidr::parse).toList());
  }
}
