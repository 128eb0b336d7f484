package io.agentteams.platform.notification;

/**
 * A notification on a channel, or a call to catch up.
 *
 * @param channel the channel
 * @param payload what the notifier sent ({@code ""} for none and for a catch-up)
 * @param catchUp true when this is no notification but word that the listener has just begun
 *     listening on the channel (at start, or after it lost its connection): whatever was notified
 *     before then may have been missed, so a subscriber should look for work now
 */
public record Notification(String channel, String payload, boolean catchUp) {

  /** A notification as Postgres delivered it. */
  public static Notification of(String channel, String payload) {
    return new Notification(channel, payload, false);
  }

  /** The call to catch up on a channel. */
  public static Notification catchUp(String channel) {
    return new Notification(channel, "", true);
  }
}
