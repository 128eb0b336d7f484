package io.agentteams.team.teams.domain;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** A member's name: lowercase kebab-case, unique in its team, immutable, never reused. */
public record MemberName(String value) {

  public static final int MAX_LENGTH = 40;
  private static final Pattern KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  public MemberName {
    if (!isValid(value)) {
      throw TeamProblems.invalidMemberName(value);
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
