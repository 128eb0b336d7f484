package io.agentteams.scheduler.signal;

import io.agentteams.platform.notification.Notification;
import io.agentteams.platform.notification.PostgresNotifications;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;

/**
 * Postgres notifications that wake this replica: the admission channel (work may have become
 * admissible), the dispatch channel (a job became offerable to an agent's streams) and the
 * interrupt channel (a job's turn is to stop). Triggers send them on commit, whichever replica made
 * the change, which is how a worker's stream on one replica learns of a job another replica
 * admitted. They come through the process's one listening connection ({@link
 * PostgresNotifications}), which also tells each subscriber to catch up after it was away. Polling
 * remains the safety net everywhere.
 */
@Component
public class DatabaseSignals {

  public static final String ADMISSION = "agentteams_admission";
  public static final String DISPATCH = "agentteams_dispatch";

  /**
   * A job was interrupted: its payload names the owner, agent, lease holder and job, so the stream
   * of the worker holding the job can tell it to stop the turn.
   */
  public static final String INTERRUPT = "agentteams_interrupt";

  private final PostgresNotifications notifications;

  public DatabaseSignals(PostgresNotifications notifications) {
    this.notifications = notifications;
  }

  /** One channel's notifications as they arrive, and a catch-up whenever listening (re)starts. */
  public Flux<Notification> on(String channel) {
    return notifications.on(channel);
  }
}
