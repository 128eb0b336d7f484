package io.agentteams.team.teams.domain;

import io.agentteams.platform.problem.ProblemException;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** A member's name: lowercase kebab-case, unique in its team, immutable, never reused. */
public record MemberName(String value) {

  public static final int MAX_LENGTH = 40;
  private static final Pattern KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  public MemberName {
    if (!isValid(value)) {
      throw new ProblemException(
          ProblemException.Kind.INVALID,
          "invalid-member-name",
          "member name '"
              + value
              + "' must be lowercase kebab-case (a-z, 0-9, single dashes), at most "
              + MAX_LENGTH
              + " characters",
          Map.of("name", String.valueOf(value)));
    }
  }

  public static boolean isValid(@Nullable String value) {
    return value != null && value.length() <= MAX_LENGTH && KEBAB.matcher(value).matches();
  }

  @Override
  public String toString() {
    return value;
  }
}
