package io.agentteams.mailbox.message.domain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a message should go, as the sender asked: one member ({@code to}) or everyone ({@code
 * broadcast}). Recipients are resolved against the team's current roster, so a name that is not a
 * member is an error and never becomes a phantom inbox.
 *
 * @param to the recipient of a direct message
 * @param broadcast whether the message goes to every member except its sender
 */
public record Addressing(@Nullable String to, boolean broadcast) {

  public static Addressing direct(String to) {
    return new Addressing(to, false);
  }

  public static Addressing everyone() {
    return new Addressing(null, true);
  }

  /** The kind of message this addressing makes. */
  public MessageKind kind() {
    return broadcast ? MessageKind.BROADCAST : MessageKind.DIRECT;
  }

  /**
   * The members who receive the message, in roster order.
   *
   * @param sender who sends it; a member never receives its own broadcast
   * @param members the team's current members
   * @throws io.agentteams.platform.problem.DomainFailure when the addressing is ambiguous, names no
   *     member of the team, or leaves nobody to receive the message
   */
  public List<String> recipients(Sender sender, List<String> members) {
    if (broadcast && to != null) {
      throw MessageProblems.ambiguousRecipient();
    }
    if (!broadcast) {
      if (to == null || to.isBlank()) {
        throw MessageProblems.missingRecipient();
      }
      if (!members.contains(to)) {
        throw MessageProblems.unknownRecipient(to);
      }
      if (sender.isMember(to)) {
        throw MessageProblems.selfMessage();
      }
      return List.of(to);
    }
    List<String> everyoneElse = members.stream().filter(m -> !sender.isMember(m)).toList();
    if (everyoneElse.isEmpty()) {
      throw MessageProblems.noRecipient();
    }
    return everyoneElse;
  }
}
