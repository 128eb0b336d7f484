package io.agentteams.platform.problem;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A request a domain rule refuses: what kind of refusal, a stable code, a sentence for people and
 * the parameters a program needs to react (the limit and the actual value, the current state).
 * Plain Java and free of any transport: each service names its failures in factories (say {@code
 * TeamProblems.tooFewMembers(min, actual)}), and only the web layer decides how a kind is answered.
 */
public class DomainFailure extends Refusal {

  /** What kind of refusal; the web layer maps each kind to its answer. */
  public enum Kind {
    /** The request is malformed or breaks a rule of the input. */
    INVALID,
    /** The caller is known but may not do this. */
    FORBIDDEN,
    /** The thing does not exist, or the caller may not know that it exists. */
    NOT_FOUND,
    /** The thing's current state does not allow the request. */
    CONFLICT,
    /** The request would exceed a configured limit. */
    LIMIT_EXCEEDED,
    /** Something the request needs is unavailable for now; a retry may succeed. */
    UNAVAILABLE
  }

  private final Kind kind;

  public Kind kind() {
    return kind;
  }

  /** A domain failure; its code, detail and parameters as {@link Refusal} describes them. */
  public DomainFailure(
      Kind kind, String code, String detail, Map<String, ? extends @Nullable Object> parameters) {
    super(code, detail, parameters);
    this.kind = kind;
  }

  /**
   * Something that does not exist, or that the caller may not know exists ({@code what-not-found}).
   */
  public static DomainFailure notFound(String what, Object id) {
    return new DomainFailure(
        Kind.NOT_FOUND,
        what + "-not-found",
        what + " " + id + " does not exist",
        Map.of("id", String.valueOf(id)));
  }

  /** A request that is malformed or breaks a rule of the input, with no parameters. */
  public static DomainFailure invalid(String code, String detail) {
    return new DomainFailure(Kind.INVALID, code, detail, Map.of());
  }

  /** A request that breaks a rule of the input. */
  public static DomainFailure invalid(
      String code, String detail, Map<String, ? extends @Nullable Object> parameters) {
    return new DomainFailure(Kind.INVALID, code, detail, parameters);
  }

  /** A known caller that may not do this, with no parameters. */
  public static DomainFailure forbidden(String code, String detail) {
    return new DomainFailure(Kind.FORBIDDEN, code, detail, Map.of());
  }

  /** A known caller that may not do this. */
  public static DomainFailure forbidden(
      String code, String detail, Map<String, ? extends @Nullable Object> parameters) {
    return new DomainFailure(Kind.FORBIDDEN, code, detail, parameters);
  }

  /** A request the thing's current state does not allow. */
  public static DomainFailure conflict(
      String code, String detail, Map<String, ? extends @Nullable Object> parameters) {
    return new DomainFailure(Kind.CONFLICT, code, detail, parameters);
  }
}
