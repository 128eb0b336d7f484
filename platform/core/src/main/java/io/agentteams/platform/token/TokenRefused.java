package io.agentteams.platform.token;

/**
 * A token that was not accepted, and why. Each kind of token turns it into its own answer (a
 * problem, or no session); it carries no stack trace, as refusals are routine.
 */
public final class TokenRefused extends RuntimeException {

  /** Why a token was refused, in the order they are checked. */
  public enum Reason {
    NO_TOKEN("no token"),
    UNREADABLE("unreadable token"),
    BAD_SIGNATURE("bad signature"),
    WRONG_ISSUER("wrong issuer"),
    WRONG_AUDIENCE("wrong audience"),
    EXPIRED("expired"),
    REVOKED("revoked");

    private final String why;

    Reason(String why) {
      this.why = why;
    }

    /** The reason in a few words, safe to show the client (it names no key or claim value). */
    public String why() {
      return why;
    }
  }

  private final Reason reason;

  TokenRefused(Reason reason) {
    super(reason.why(), null, false, false);
    this.reason = reason;
  }

  /** Why the token was refused. */
  public Reason reason() {
    return reason;
  }
}
