package io.agentteams.sdk.streams;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.Backoff;
import io.agentteams.sdk.internal.HttpTransport;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The gateway's streams: a team's events (owner), a member's events, and {@code wait}. */
public final class Streams {

  private static final Backoff BACKOFF =
      new Backoff(Duration.ofMillis(500), Duration.ofSeconds(15));

  private final HttpTransport http;

  public Streams(HttpTransport http) {
    this.http = http;
  }

  /**
   * Every event of a team, as its owner watches it, held open and resumed after drops.
   *
   * @param lastEventId resume after this event; null for the live window
   */
  public EventSubscription team(
      UUID teamId, @Nullable String lastEventId, EventSubscription.Listener listener) {
    return new EventSubscription(
            http,
            ApiPath.of("/api/v1/teams/{}/events", teamId),
            lastEventId,
            listener,
            BACKOFF,
            "agentteams-team-events-" + teamId)
        .start();
  }

  /** The events a member sees (its mailbox, the board, the roster), held open and resumed. */
  public EventSubscription member(
      UUID teamId,
      String member,
      @Nullable String lastEventId,
      EventSubscription.Listener listener) {
    return new EventSubscription(
            http,
            ApiPath.of("/api/v1/teams/{}/members/{}/events", teamId, member),
            lastEventId,
            listener,
            BACKOFF,
            "agentteams-member-events-" + member)
        .start();
  }

  /**
   * The next roster, mailbox, task or status change after this call (never an older one), or {@code
   * changed=false} after the time-out.
   */
  public WaitResult waitForChange(UUID teamId, @Nullable Long timeoutMs) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/wait", teamId).query("timeout_ms", timeoutMs),
            null,
            WaitResult.class));
  }
}
