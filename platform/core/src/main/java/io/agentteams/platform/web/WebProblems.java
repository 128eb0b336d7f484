package io.agentteams.platform.web;

import io.agentteams.platform.problem.ProblemException;
import java.util.Map;

/** The problems web adapters name for requests they cannot take: malformed input, unknown ids. */
public final class WebProblems {

  private WebProblems() {}

  /** Something that does not exist, or that the caller may not know exists. */
  public static ProblemException notFound(String what, Object id) {
    return new ProblemException(
        ProblemException.Kind.NOT_FOUND,
        what + "-not-found",
        what + " " + id + " does not exist",
        Map.of("id", String.valueOf(id)));
  }

  /** A request that is malformed or breaks a rule of the input. */
  public static ProblemException invalid(String code, String detail) {
    return new ProblemException(ProblemException.Kind.INVALID, code, detail);
  }
}
