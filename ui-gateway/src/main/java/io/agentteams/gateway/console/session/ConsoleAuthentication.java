package io.agentteams.gateway.console.session;

import io.agentteams.platform.identity.Caller;
import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** A person signed in to the console: an owner, and an operator if configured so. */
public final class ConsoleAuthentication extends AbstractAuthenticationToken {

  /** The authority of people who may open the operator page. */
  public static final String OPERATOR = "ROLE_OPERATOR";

  private final ConsoleSession session;

  public ConsoleAuthentication(ConsoleSession session, boolean operator) {
    super(authorities(operator));
    if (!session.signedIn()) {
      throw new IllegalArgumentException("an anonymous session authenticates nobody");
    }
    this.session = session;
    setAuthenticated(true);
  }

  private static List<GrantedAuthority> authorities(boolean operator) {
    return operator ? List.of(new SimpleGrantedAuthority(OPERATOR)) : List.of();
  }

  /** The session behind this sign-in. */
  public ConsoleSession session() {
    return session;
  }

  /** The owner the console acts for. */
  public Caller.Owner owner() {
    return new Caller.Owner(session.ownerId());
  }

  /** Whether this person may open the operator page. */
  public boolean operator() {
    return getAuthorities().stream().anyMatch(a -> OPERATOR.equals(a.getAuthority()));
  }

  @Override
  public Object getCredentials() {
    return "";
  }

  @Override
  public Object getPrincipal() {
    return session.ownerId();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ConsoleAuthentication that
        && session.equals(that.session)
        && getAuthorities().equals(that.getAuthorities());
  }

  @Override
  public int hashCode() {
    return session.hashCode();
  }
}
