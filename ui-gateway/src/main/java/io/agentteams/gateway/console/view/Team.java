package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A team as the API shows it to its owner. */
public record Team(
    UUID id,
    String name,
    String goal,
    String status,
    @Nullable String statusReason,
    long revision,
    Instant createdAt,
    List<Member> members) {

  public Team {
    members = members == null ? List.of() : List.copyOf(members);
  }

  /** A member, its binding and its conversation. */
  public record Member(
      String name,
      String agentId,
      boolean lead,
      String conversationId,
      String runtimeKind,
      @Nullable String endpoint,
      String provisioning) {}

  /** The status as a person reads it. */
  public String statusLabel() {
    return status.replace('_', ' ');
  }

  /** Whether the team can take requests. */
  public boolean ready() {
    return "ready".equals(status);
  }
}
