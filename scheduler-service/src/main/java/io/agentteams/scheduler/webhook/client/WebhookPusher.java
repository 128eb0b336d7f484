package io.agentteams.scheduler.webhook.client;

import io.agentteams.platform.outbound.OutboundHttp;
import io.agentteams.platform.outbound.OutboundRefused;
import io.agentteams.scheduler.runtime.domain.PushAgent;
import io.agentteams.scheduler.webhook.WebhookProperties;
import io.agentteams.scheduler.webhook.domain.PushResult;
import io.agentteams.scheduler.webhook.domain.WebhookSigner;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.timeout.ReadTimeoutException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * Sends one push: a Standard Webhooks request ({@code webhook-id}, {@code webhook-timestamp},
 * {@code webhook-signature}) through the outbound guard's client (addresses checked on every
 * connection, no redirects, TLS verified, bounded time and size), and says what its answer means.
 */
@Component
public class WebhookPusher {

  private final WebClient client;
  private final Clock clock;
  private final int maxResponseBytes;

  public WebhookPusher(OutboundHttp outbound, WebhookProperties properties, Clock clock) {
    this.maxResponseBytes = (int) properties.maxResponseBytes().toBytes();
    this.client =
        outbound.client(
            "webhook",
            new OutboundHttp.Limits(
                properties.connectTimeout(), properties.responseTimeout(), maxResponseBytes));
    this.clock = clock;
  }

  /** Pushes the body to the agent's endpoint, signed with its current (and previous) secret. */
  public Mono<PushResult> push(PushAgent agent, String messageId, byte[] body) {
    Instant now = clock.instant();
    long timestamp = now.getEpochSecond();
    String signature =
        WebhookSigner.signature(agent.signingSecrets(now), messageId, timestamp, body);
    return client
        .post()
        .uri(agent.endpoint())
        .contentType(MediaType.APPLICATION_JSON)
        .header("webhook-id", messageId)
        .header("webhook-timestamp", Long.toString(timestamp))
        .header("webhook-signature", signature)
        .header(HttpHeaders.USER_AGENT, "agent-teams-webhooks/1")
        .bodyValue(body)
        .exchangeToMono(
            response ->
                response
                    .bodyToMono(String.class)
                    .defaultIfEmpty("")
                    .map(
                        text ->
                            PushResult.ofStatus(
                                response.statusCode().value(),
                                retryAfter(response.headers().asHttpHeaders(), now),
                                text)))
        .onErrorResume(e -> Mono.just(failure(e)));
  }

  /** What a failure without an answer means: refused, retryable (never sent) or unknown. */
  private PushResult failure(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof OutboundRefused refused) {
        return new PushResult.Refused(refused.reason());
      }
      if (cause instanceof DataBufferLimitException) {
        return new PushResult.Rejected(
            "the agent's answer is larger than " + maxResponseBytes + " bytes");
      }
      if (cause instanceof ConnectException
          || cause instanceof ConnectTimeoutException
          || cause instanceof NoRouteToHostException
          || cause instanceof UnknownHostException) {
        return new PushResult.Retryable(
            "could not connect to the agent: " + cause.getClass().getSimpleName(), null);
      }
      if (cause instanceof ReadTimeoutException) {
        return new PushResult.Unknown("no answer within the response time-out");
      }
    }
    // The request may have left (a connection closed mid-answer, say): treat it as unknown.
    return new PushResult.Unknown(
        "the push ended without an answer: " + error.getClass().getSimpleName());
  }

  /** The wait an agent asked for: seconds, or an HTTP date. */
  static @Nullable Duration retryAfter(HttpHeaders headers, Instant now) {
    String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim())));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at =
            ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration wait = Duration.between(now, at);
        return wait.isNegative() ? Duration.ZERO : wait;
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }
}
