package io.agentteams.sdk.teams;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team: a goal and a fixed roster of named members, each bound to an agent.
 *
 * @param id the team
 * @param ownerId who owns it
 * @param name its name
 * @param goal what it works towards
 * @param status {@code provisioning}, {@code ready}, {@code failed}, {@code disconnected} or {@code
 *     deleted}
 * @param statusReason why, for {@code failed} and {@code disconnected}
 * @param revision increases with every change
 * @param createdAt when it was formed
 * @param members its roster
 */
public record Team(
    UUID id,
    String ownerId,
    String name,
    String goal,
    String status,
    @Nullable String statusReason,
    long revision,
    Instant createdAt,
    List<Member> members) {

  /** Whether every member's conversation is ensured and the team can work. */
  public boolean ready() {
    return "ready".equals(status);
  }

  /** The member of that name. */
  public Optional<Member> member(String name) {
    return members.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  /**
   * A member of a team.
   *
   * @param name its name in the team (lowercase kebab-case, never reused)
   * @param agentId the agent it is bound to
   * @param lead whether it may assign tasks to others and interrupt them
   * @param conversationId its own persistent conversation
   * @param runtimeKind how its jobs reach the agent
   * @param endpoint where push runtimes are called
   * @param provisioning how far ensuring its conversation got
   */
  public record Member(
      String name,
      String agentId,
      boolean lead,
      String conversationId,
      String runtimeKind,
      @Nullable String endpoint,
      String provisioning) {}
}
