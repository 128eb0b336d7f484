package io.agentteams.platform.identity;

import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Who is calling, as verified at the edge and re-verified by every service. */
public sealed interface Caller {

  /** The owner whose resources this caller may touch; services use it for every check. */
  String ownerId();

  /** A person who owns teams. */
  record Owner(String ownerId) implements Caller {
    public Owner {
      requireText(ownerId, "owner id");
    }
  }

  /**
   * An agent acting as exactly one member of one team, optionally within one job under one lease.
   *
   * @param ownerId the team's owner
   * @param teamId the team
   * @param member the member's name in that team
   * @param jobId the job the token was minted for, if any
   * @param lease the number of the job's offer whose lease the token was minted under: the token
   *     acts only while that lease is the job's current one (never without a job)
   */
  record Member(
      String ownerId, UUID teamId, String member, @Nullable UUID jobId, @Nullable Integer lease)
      implements Caller {
    public Member {
      requireText(ownerId, "owner id");
      Objects.requireNonNull(teamId, "team id");
      requireText(member, "member");
      if (lease != null && jobId == null) {
        throw new IllegalArgumentException("a lease is always a job's");
      }
    }

    /** A member, within {@code jobId} if there is one, under no lease. */
    public Member(String ownerId, UUID teamId, String member, @Nullable UUID jobId) {
      this(ownerId, teamId, member, jobId, null);
    }
  }

  /** An agent worker that runs the jobs of one registered agent. */
  record Worker(String ownerId, String agentId) implements Caller {
    public Worker {
      requireText(ownerId, "owner id");
      requireText(agentId, "agent id");
    }
  }

  /**
   * An A2A client the owner lets speak for exactly one team: it may read that team's agent card and
   * call its A2A endpoint, and nothing else. The gateway alone accepts it; no service ever sees it.
   *
   * @param ownerId the team's owner
   * @param teamId the team
   */
  record TeamAgent(String ownerId, UUID teamId) implements Caller {
    public TeamAgent {
      requireText(ownerId, "owner id");
      Objects.requireNonNull(teamId, "team id");
    }
  }

  /** Another service of this system, acting on its own behalf. */
  record Service(String name) implements Caller {
    public Service {
      requireText(name, "service name");
    }

    @Override
    public String ownerId() {
      return "service:" + name;
    }
  }

  private static void requireText(@Nullable String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " is required");
    }
  }
}
