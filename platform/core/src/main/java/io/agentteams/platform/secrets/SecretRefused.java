package io.agentteams.platform.secrets;

/**
 * A ciphertext that is not opened: unreadable, under a key id not held, bound to another record, or
 * failing its authentication. Says why, never what it holds.
 */
public final class SecretRefused extends IllegalStateException {

  /** Why a ciphertext was refused; {@link #tag()} is its metric tag. */
  public enum Reason {
    /** Not a compact JWE of the expected algorithms. */
    UNREADABLE("unreadable"),
    /** Its {@code kid} names no key held here. */
    UNKNOWN_KEY("unknown-key"),
    /** Its protected header names another owner, agent or field than the record it came with. */
    BINDING("binding"),
    /** It failed to decrypt (tampered, or encrypted to another key under the same id). */
    UNDECRYPTABLE("undecryptable");

    private final String tag;

    Reason(String tag) {
      this.tag = tag;
    }

    /** The reason as a metric tag and log word. */
    public String tag() {
      return tag;
    }
  }

  private final Reason reason;

  SecretRefused(Reason reason, String detail) {
    super(reason.tag() + ": " + detail);
    this.reason = reason;
  }

  /** Why it was refused. */
  public Reason reason() {
    return reason;
  }
}
