package io.agentteams.team.agents.domain;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** An agent's id, unique in its owner's catalog: letters, digits, dot, dash, underscore. */
public record AgentId(String value) {

  public static final int MAX_LENGTH = 64;
  private static final Pattern FORM = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  public AgentId {
    if (!isValid(value)) {
      throw AgentProblems.invalidAgentId(value);
    }
  }

  public static boolean isValid(@Nullable String value) {
    return value != null && FORM.matcher(value).matches();
  }

  @Override
  public String toString() {
    return value;
  }
}
