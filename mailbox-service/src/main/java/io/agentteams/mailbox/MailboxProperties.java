package io.agentteams.mailbox;

import io.agentteams.mailbox.message.domain.MessageLimits;
import io.agentteams.mailbox.paging.domain.PageSize;
import io.agentteams.platform.bounds.TextBound;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Mailbox limits and delivery settings, with the defaults DESIGN.md names.
 *
 * @param messageMaxChars message text, characters
 * @param messageMaxBytes message text, UTF-8 bytes
 * @param clientMessageIdMaxChars a sender's idempotency key, characters (and bytes)
 * @param historySize messages the team's shared record keeps; older ones rotate out
 * @param pageDefault records per history or result page when the caller names no limit
 * @param pageMax the largest limit a caller may name
 * @param responseMaxBytes the most UTF-8 JSON bytes of any read response, escaping included
 * @param excerptMaxBytes request and answer excerpts in result search, UTF-8 bytes
 * @param textMaxBytes message texts in history and the answer of a result, UTF-8 bytes
 * @param queryMaxChars the longest search query, characters
 * @param contextMessages the newest messages handed to the gateway for the team context
 * @param inboxMaxMessages the most messages one inbox read returns
 * @param inboxLease how long the messages a read of what is new returned stay leased to it: no
 *     other read gets them meanwhile, and unless the reader acknowledges them by then they are
 *     returned again (so a read whose answer never arrived loses nothing)
 * @param deliveryConcurrency listener threads of the delivery consumer
 * @param redeliveryAfter how long a delivery may stay queued before the sweeper delivers it
 * @param sweepInterval how often the sweeper looks for such deliveries and measures the backlog
 * @param sendBatchMax the most sends written together in one transaction; sends that arrive while
 *     one is being written wait for it and then go together, up to this many
 * @param rosterCacheTtl how long a replica reuses a team's roster before reading it again (0 reads
 *     it on every request)
 */
@Validated
@ConfigurationProperties("agentteams.mailbox")
public record MailboxProperties(
    @DefaultValue("4000") int messageMaxChars,
    @DefaultValue("8000") int messageMaxBytes,
    @DefaultValue("200") int clientMessageIdMaxChars,
    @DefaultValue("100") int historySize,
    @DefaultValue("8") int pageDefault,
    @DefaultValue("20") int pageMax,
    @DefaultValue("24000") int responseMaxBytes,
    @DefaultValue("500") int excerptMaxBytes,
    @DefaultValue("6000") int textMaxBytes,
    @DefaultValue("200") int queryMaxChars,
    @DefaultValue("8") int contextMessages,
    @DefaultValue("20") int inboxMaxMessages,
    @DefaultValue("30s") Duration inboxLease,
    @DefaultValue("2") int deliveryConcurrency,
    @DefaultValue("30s") Duration redeliveryAfter,
    @DefaultValue("10s") Duration sweepInterval,
    @DefaultValue("64") int sendBatchMax,
    @DefaultValue("1s") Duration rosterCacheTtl) {

  public MailboxProperties {
    require(historySize >= 1, "history-size must be at least 1");
    require(contextMessages >= 1, "context-messages must be at least 1");
    require(inboxMaxMessages >= 1, "inbox-max-messages must be at least 1");
    require(inboxLease.compareTo(Duration.ZERO) > 0, "inbox-lease must be positive");
    require(deliveryConcurrency >= 1, "delivery-concurrency must be at least 1");
    require(excerptMaxBytes >= 1 && textMaxBytes >= excerptMaxBytes, "text-max-bytes >= excerpt");
    require(responseMaxBytes >= 1024, "response-max-bytes must be at least 1024");
    require(!redeliveryAfter.isNegative(), "redelivery-after must not be negative");
    require(sweepInterval.compareTo(Duration.ZERO) > 0, "sweep-interval must be positive");
    require(sendBatchMax >= 1, "send-batch-max must be at least 1");
    require(!rosterCacheTtl.isNegative(), "roster-cache-ttl must not be negative");
    new PageSize(pageDefault, pageMax);
  }

  /** The limits of a message as the domain sees them. */
  public MessageLimits messageLimits() {
    return new MessageLimits(
        new TextBound("mailbox.message", messageMaxChars, messageMaxBytes),
        new TextBound(
            "mailbox.client-message-id", clientMessageIdMaxChars, clientMessageIdMaxChars * 4));
  }

  /** Page sizes of history and result search. */
  public PageSize pageSize() {
    return new PageSize(pageDefault, pageMax);
  }

  /** The bound of a search query. */
  public TextBound queryBound() {
    return new TextBound("mailbox.query", queryMaxChars, queryMaxChars * 4);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException("agentteams.mailbox." + message);
    }
  }
}
