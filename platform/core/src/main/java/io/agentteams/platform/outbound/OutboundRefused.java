package io.agentteams.platform.outbound;

/**
 * An outbound call the guard refused before anything was sent: the URL's form, or an address the
 * host resolved to, is not allowed. The message says which and why, for the person who registered
 * the URL.
 */
public class OutboundRefused extends RuntimeException {

  private final String reason;

  public OutboundRefused(String reason) {
    super(reason, null, false, false);
    this.reason = reason;
  }

  /** Why the call was refused, e.g. "127.0.0.1 is loopback (127.0.0.0/8)". */
  public String reason() {
    return reason;
  }
}
