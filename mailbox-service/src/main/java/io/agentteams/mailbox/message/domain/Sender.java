package io.agentteams.mailbox.message.domain;

import java.util.Objects;

/**
 * The identity a message is sent under, always taken from the verified caller.
 *
 * @param kind member, owner or system
 * @param name the member's name; {@code owner} or {@code system} for the others
 */
public record Sender(SenderKind kind, String name) {

  public Sender {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    if (kind != SenderKind.MEMBER && !name.equals(kind.wire())) {
      throw new IllegalArgumentException("a " + kind.wire() + " sender is named " + kind.wire());
    }
  }

  public static Sender member(String name) {
    return new Sender(SenderKind.MEMBER, name);
  }

  public static Sender owner() {
    return new Sender(SenderKind.OWNER, SenderKind.OWNER.wire());
  }

  public static Sender system() {
    return new Sender(SenderKind.SYSTEM, SenderKind.SYSTEM.wire());
  }

  /** Whether this sender is the named member. */
  public boolean isMember(String member) {
    return kind == SenderKind.MEMBER && name.equals(member);
  }
}
