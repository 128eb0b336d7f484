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
 */
public record NewRequest(List<String> recipients, String text, @Nullable String idempotencyKey) {

  public NewRequest {
    recipients = List.copyOf(recipients);
  }

  /** A request to one member. */
  public static NewRequest to(String member, String text, @Nullable String idempotencyKey) {
    return new NewRequest(List.of(member), text, idempotencyKey);
  }
}
