package io.agentteams.sdk.jobs;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A request to members of a team: from the owner to any members, or from a member ({@code
 * send_member}) to one other member, whose answer then returns to it as a receipt.
 *
 * @param recipients the members to ask (one for a member's hand-off)
 * @param text the request (at most 4,000 characters)
 * @param idempotencyKey a retry with the same key returns the same jobs; null for none
 * @param ifBusy when a recipient's conversation is busy with an unfinished job: {@code enqueue}
 *     (null, the default: queue behind it), {@code reject} (409 {@code conversation-busy} naming
 *     it) or {@code interrupt} (interrupt the job whose turn is under way and run this one next;
 *     the team's lead or its owner only)
 */
public record NewRequest(
    List<String> recipients,
    String text,
    @Nullable String idempotencyKey,
    @Nullable String ifBusy) {

  public NewRequest {
    recipients = List.copyOf(recipients);
  }

  /** A request that queues behind whatever its recipients' conversations are busy with. */
  public NewRequest(List<String> recipients, String text, @Nullable String idempotencyKey) {
    this(recipients, text, idempotencyKey, null);
  }

  /** A request to one member. */
  public static NewRequest to(String member, String text, @Nullable String idempotencyKey) {
    return new NewRequest(List.of(member), text, idempotencyKey);
  }

  /** The same request, saying what to do when a recipient is busy ({@code if_busy}). */
  public NewRequest ifBusy(String whenBusy) {
    return new NewRequest(recipients, text, idempotencyKey, whenBusy);
  }
}
