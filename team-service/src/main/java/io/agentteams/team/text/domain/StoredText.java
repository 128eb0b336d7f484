package io.agentteams.team.text.domain;

import io.agentteams.platform.bounds.TextBound;
import org.jspecify.annotations.Nullable;

/**
 * Checks text before it is stored: within its bound (characters and UTF-8 bytes, no unpaired
 * surrogates) and free of NUL, which Postgres text cannot hold.
 */
public final class StoredText {

  private StoredText() {}

  /** The value when it fits its bound and holds no NUL; otherwise a problem naming the rule. */
  public static String check(TextBound bound, @Nullable String value) {
    String checked = bound.check(value);
    int nul = checked.indexOf('\u0000');
    if (nul >= 0) {
      throw TextProblems.nulCharacter(bound.field(), nul);
    }
    return checked;
  }

  /** Like {@link #check} but also rejects blank text. */
  public static String checkNotBlank(TextBound bound, @Nullable String value) {
    String checked = check(bound, value);
    if (checked.isBlank()) {
      throw TextProblems.blank(bound.field());
    }
    return checked;
  }
}
