package io.agentteams.scheduler.budget.domain;

import java.util.Comparator;
import java.util.Objects;

/**
 * What spend is summed over: an owner, a team, a member of a team, a team run or a hand-off chain.
 * Scopes are ordered so that every transaction locks their ledger rows in the same order.
 *
 * @param kind which kind of scope
 * @param id the owner id, team id, {@code teamId/member}, run id or chain id
 */
public record Scope(Kind kind, String id) implements Comparable<Scope> {

  private static final Comparator<Scope> ORDER =
      Comparator.comparing((Scope s) -> s.kind.wire()).thenComparing(Scope::id);

  /** The kinds of scope, with their names on the wire and in the database. */
  public enum Kind {
    OWNER("owner"),
    TEAM("team"),
    MEMBER("member"),
    RUN("run"),
    CHAIN("chain");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    public static Kind fromWire(String wire) {
      for (Kind kind : values()) {
        if (kind.wire.equals(wire)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("unknown scope " + wire);
    }
  }

  public Scope {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
  }

  public static Scope owner(String ownerId) {
    return new Scope(Kind.OWNER, ownerId);
  }

  public static Scope team(Object teamId) {
    return new Scope(Kind.TEAM, teamId.toString());
  }

  public static Scope member(Object teamId, String member) {
    return new Scope(Kind.MEMBER, teamId + "/" + member);
  }

  public static Scope run(Object runId) {
    return new Scope(Kind.RUN, runId.toString());
  }

  public static Scope chain(Object chainId) {
    return new Scope(Kind.CHAIN, chainId.toString());
  }

  /** The scope as one string, {@code kind:id}, as a job records where its hold is. */
  public String key() {
    return kind.wire + ":" + id;
  }

  /** The scope a {@link #key()} names. */
  public static Scope fromKey(String key) {
    int colon = key.indexOf(':');
    return new Scope(Kind.fromWire(key.substring(0, colon)), key.substring(colon + 1));
  }

  @Override
  public int compareTo(Scope other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return kind.wire + " " + id;
  }
}
