package io.agentteams.team.agents.domain;

import io.agentteams.platform.problem.ProblemException;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** An agent's id, unique in its owner's catalog: letters, digits, dot, dash, underscore. */
public record AgentId(String value) {

  public static final int MAX_LENGTH = 64;
  private static final Pattern FORM = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  public AgentId {
    if (!isValid(value)) {
      throw new ProblemException(
          ProblemException.Kind.INVALID,
          "invalid-agent-id",
          "agent id '"
              + value
              + "' must start with a letter or digit and hold at most "
              + MAX_LENGTH
              + " letters, digits, '.', '-' or '_'",
          Map.of("agent_id", String.valueOf(value)));
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
