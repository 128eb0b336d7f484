package io.agentteams.gateway.console.view;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** An entry of the team's public state, with who made it and who changed it last, from where. */
public record StateItem(
    long id,
    String kind,
    String title,
    String content,
    String status,
    String createdBy,
    Instant createdAt,
    String updatedBy,
    Instant updatedAt,
    String sourceConversationId,
    @Nullable String sourceJobId,
    long revision) {

  public boolean archived() {
    return "archived".equals(status);
  }

  public String version() {
    return id + ":" + revision + ":" + status;
  }
}
