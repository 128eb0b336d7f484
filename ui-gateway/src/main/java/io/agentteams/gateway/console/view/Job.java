package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A job as the API shows it to its owner: an owner's request, a member's hand-off, or the receipt
 * that returned a hand-off's answer.
 */
public record Job(
    UUID id,
    UUID teamId,
    String member,
    String agentId,
    String conversationId,
    String kind,
    String requester,
    @Nullable UUID parentJobId,
    UUID chainId,
    String state,
    long revision,
    String input,
    @Nullable Input question,
    @Nullable Input answer,
    @Nullable Result result,
    @Nullable UUID receiptJobId,
    @Nullable String receiptNote,
    Instant createdAt,
    Instant queuedAt,
    @Nullable Instant admittedAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt) {

  /** A question or an answer: text for a clarification, JSON for an interrupt. */
  public record Input(String kind, @Nullable String text, @Nullable JsonNode payload) {

    /** The content as text (an interrupt's JSON, pretty-printed). */
    public String content() {
      if (text != null) {
        return text;
      }
      return payload == null ? "" : payload.toPrettyString();
    }

    public boolean interrupt() {
      return "interrupt".equals(kind);
    }
  }

  /** How the job ended. */
  public record Result(
      String status,
      @Nullable String answer,
      boolean truncated,
      @Nullable String error,
      @Nullable String runId) {}

  /** Whether the job still holds work. */
  public boolean unfinished() {
    return switch (state) {
      case "completed", "failed", "cancelled", "interrupted" -> false;
      default -> true;
    };
  }

  /**
   * Whether its turn is under way, so it can be interrupted (it then ends {@code interrupted}, its
   * conversation kept): admitted, running, its outcome unknown, or waiting for an answer.
   */
  public boolean interruptible() {
    return switch (state) {
      case "admitted", "running", "unknown", "waiting_input" -> true;
      default -> false;
    };
  }

  /** Whether the owner's answer is awaited. */
  public boolean waitingInput() {
    return "waiting_input".equals(state);
  }

  /** The state as a person reads it. */
  public String stateLabel() {
    return switch (state) {
      case "waiting_input" -> "waiting for input";
      case "waiting_worker" -> "no worker connected";
      case "admitted" -> "starting";
      default -> state.replace('_', ' ');
    };
  }

  /** Who asked, as a person reads it. */
  public String from() {
    return "owner".equals(requester) ? "you" : requester;
  }

  /** A version of what the card shows: it changes whenever the job does. */
  public String version() {
    return id + ":" + revision;
  }
}
