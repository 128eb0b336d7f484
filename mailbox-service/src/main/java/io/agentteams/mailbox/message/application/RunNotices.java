package io.agentteams.mailbox.message.application;

import io.agentteams.contracts.scheduler.RunProgressed;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.message.domain.Addressing;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.domain.MessageLimits;
import io.agentteams.mailbox.message.domain.Sender;
import io.agentteams.mailbox.message.domain.SystemKind;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.Rosters;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Writes a team run's progress into the team's shared record as system messages to every member: a
 * task assigned, a task's result or error, the run complete. Each is sent under a client message id
 * made of the run and the timeline entry, so a redelivered event sends nothing twice.
 */
@Service
public class RunNotices {

  /** The timeline kinds that become messages, and what each message reports. */
  private static final Map<String, SystemKind> NOTICES =
      Map.of(
          "task.assigned", SystemKind.TASK_ASSIGNED,
          "task.result", SystemKind.TASK_RESULT,
          "task.error", SystemKind.TASK_ERROR,
          "run.complete", SystemKind.RUN_COMPLETE);

  /** The kinds of entry {@link #on} acts on. */
  public static final Set<String> KINDS = NOTICES.keySet();

  private final Rosters rosters;
  private final SendBatcher batcher;
  private final MessageLimits limits;

  public RunNotices(Rosters rosters, SendBatcher batcher, MailboxProperties properties) {
    this.rosters = rosters;
    this.batcher = batcher;
    this.limits = properties.messageLimits();
  }

  /** Sends the entry's message, if its kind is one the record keeps. */
  public Mono<Void> on(RunProgressed entry) {
    SystemKind kind = NOTICES.get(entry.kind());
    if (kind == null) {
      return Mono.empty();
    }
    UUID teamId = UUID.fromString(entry.teamId());
    return rosters
        .find(teamId)
        .filter(roster -> !roster.members().isEmpty())
        .flatMap(
            roster ->
                batcher.send(
                    Message.compose(
                        UUID.randomUUID(),
                        teamId,
                        roster.ownerId(),
                        Sender.system(),
                        new Addressing(null, true),
                        kind,
                        roster.members().stream().map(Roster.Member::name).toList(),
                        new Message.Provenance(entry.jobId(), null),
                        "run:" + entry.runId() + ":" + entry.sequence(),
                        text(entry),
                        limits)))
        .then();
  }

  private String text(RunProgressed entry) {
    String text =
        switch (entry.kind()) {
          case "task.assigned" ->
              "Run "
                  + entry.runId()
                  + ": task ["
                  + entry.taskKey()
                  + "] assigned to "
                  + entry.member()
                  + ": "
                  + entry.detail();
          case "task.result" ->
              "Run "
                  + entry.runId()
                  + ": task ["
                  + entry.taskKey()
                  + "] done by "
                  + entry.member()
                  + ": "
                  + entry.detail();
          case "task.error" ->
              "Run "
                  + entry.runId()
                  + ": task ["
                  + entry.taskKey()
                  + "] failed ("
                  + entry.member()
                  + "): "
                  + entry.detail();
          default -> "Run " + entry.runId() + " complete: " + entry.detail();
        };
    // Four UTF-8 bytes at most per character: the cut text fits both of the text's bounds.
    int max = Math.min(limits.text().maxChars(), limits.text().maxBytes() / 4);
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
