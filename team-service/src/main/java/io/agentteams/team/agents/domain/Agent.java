package io.agentteams.team.agents.domain;

import io.agentteams.team.text.domain.StoredText;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An agent in an owner's catalog: what it is called, what it does, how it runs, what it may use.
 */
public final class Agent {

  private static final Pattern TOOL_GROUP = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  private static final int TOOL_GROUP_MAX_LENGTH = 40;

  private final AgentId id;
  private final String ownerId;
  private final String name;
  private final String description;
  private final AgentRuntime runtime;
  private final List<String> toolGroups;
  private final long revision;
  private final Instant createdAt;
  private final Instant updatedAt;

  public Agent(
      AgentId id,
      String ownerId,
      String name,
      String description,
      AgentRuntime runtime,
      List<String> toolGroups,
      long revision,
      Instant createdAt,
      Instant updatedAt) {
    this.id = Objects.requireNonNull(id);
    this.ownerId = Objects.requireNonNull(ownerId);
    this.name = Objects.requireNonNull(name);
    this.description = Objects.requireNonNull(description);
    this.runtime = Objects.requireNonNull(runtime);
    this.toolGroups = List.copyOf(toolGroups);
    this.revision = revision;
    this.createdAt = Objects.requireNonNull(createdAt);
    this.updatedAt = Objects.requireNonNull(updatedAt);
  }

  /**
   * A new agent of the owner, checked against the limits.
   *
   * @throws io.agentteams.platform.problem.DomainFailure naming the first rule the draft breaks
   */
  public static Agent register(
      AgentId id, String ownerId, AgentDraft draft, AgentLimits limits, Instant now) {
    Instant at = now.truncatedTo(ChronoUnit.MILLIS);
    return checked(id, ownerId, draft, limits, 1, at, at);
  }

  /** This agent with every field replaced by the draft's, one revision later. */
  public Agent replace(AgentDraft draft, AgentLimits limits, Instant now) {
    return checked(
        id, ownerId, draft, limits, revision + 1, createdAt, now.truncatedTo(ChronoUnit.MILLIS));
  }

  private static Agent checked(
      AgentId id,
      String ownerId,
      AgentDraft draft,
      AgentLimits limits,
      long revision,
      Instant createdAt,
      Instant updatedAt) {
    String name = StoredText.checkNotBlank(limits.name(), draft.name());
    String description =
        StoredText.check(
            limits.description(), draft.description() == null ? "" : draft.description());
    AgentRuntime runtime =
        AgentRuntime.of(draft.runtimeKind(), draft.endpoint(), limits.endpointMaxBytes());
    List<String> toolGroups = toolGroups(draft.toolGroups(), limits.maxToolGroups());
    return new Agent(
        id, ownerId, name, description, runtime, toolGroups, revision, createdAt, updatedAt);
  }

  private static List<String> toolGroups(@Nullable List<String> requested, int max) {
    if (requested == null) {
      return List.of();
    }
    if (requested.size() > max) {
      throw AgentProblems.tooManyToolGroups(max, requested.size());
    }
    Set<String> seen = new HashSet<>();
    for (String group : requested) {
      if (group == null
          || group.length() > TOOL_GROUP_MAX_LENGTH
          || !TOOL_GROUP.matcher(group).matches()) {
        throw AgentProblems.invalidToolGroup(group, TOOL_GROUP_MAX_LENGTH);
      }
      if (!seen.add(group)) {
        throw AgentProblems.duplicateToolGroup(group);
      }
    }
    return List.copyOf(requested);
  }

  /** Whether the owner may see and change this agent. */
  public boolean ownedBy(String owner) {
    return ownerId.equals(owner);
  }

  public AgentId id() {
    return id;
  }

  public String ownerId() {
    return ownerId;
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  public AgentRuntime runtime() {
    return runtime;
  }

  public List<String> toolGroups() {
    return toolGroups;
  }

  public long revision() {
    return revision;
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Instant updatedAt() {
    return updatedAt;
  }
}
