package io.agentteams.scheduler.run.persistence;

import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.contracts.team.StateEntry;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.scheduler.run.RunProperties;
import io.agentteams.scheduler.run.domain.TeamContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * The team context a run's tasks are given, kept from events: the goal from {@code TeamCreated},
 * the public state entries from {@code TeamStatePublished}/{@code TeamStateUpdated} (the newest
 * revision of each wins, so a redelivered or late event never rolls one back), and the recent
 * messages from {@code MessageQueued}, pruned to the most recent few per team. Read back within the
 * configured byte bounds.
 */
@Repository
public class TeamContextStore {

  private final DatabaseClient db;
  private final int stateMaxBytes;
  private final int messages;
  private final int messagesMaxBytes;

  public TeamContextStore(DatabaseClient db, RunProperties properties) {
    this.db = db;
    this.stateMaxBytes = properties.contextStateMaxBytes();
    this.messages = properties.contextMessages();
    this.messagesMaxBytes = properties.contextMessagesMaxBytes();
  }

  public Mono<Void> goal(UUID teamId, String goal) {
    return db.sql(
            """
            INSERT INTO run_team_goal (team_id, goal) VALUES (:team, :goal)
            ON CONFLICT (team_id) DO UPDATE SET goal = EXCLUDED.goal
            """)
        .bind("team", teamId)
        .bind("goal", goal)
        .fetch()
        .rowsUpdated()
        .then();
  }

  public Mono<Void> state(UUID teamId, StateEntry entry) {
    return db.sql(
            """
            INSERT INTO run_team_state (team_id, entry_id, kind, title, content, status, revision,
                updated_at)
            VALUES (:team, :entry, :kind, :title, :content, :status, :revision, :updated)
            ON CONFLICT (team_id, entry_id) DO UPDATE SET kind = EXCLUDED.kind,
                title = EXCLUDED.title, content = EXCLUDED.content, status = EXCLUDED.status,
                revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
            WHERE run_team_state.revision < EXCLUDED.revision
            """)
        .bind("team", teamId)
        .bind("entry", entry.id())
        .bind("kind", entry.kind())
        .bind("title", entry.title())
        .bind("content", entry.content())
        .bind("status", entry.status())
        .bind("revision", entry.revision())
        .bind("updated", entry.updatedAt())
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** A member's or the owner's message; the team keeps only its most recent few. */
  public Mono<Void> message(UUID teamId, MessageQueued message) {
    if (messages == 0) {
      return Mono.empty();
    }
    // One statement, one round trip per message: the delete sees the rows as they were before the
    // insert, so it keeps one fewer of them when the message was new (a redelivered one inserts
    // nothing and keeps them all).
    return db.sql(
            """
            WITH inserted AS (
                INSERT INTO run_team_message (team_id, sequence, sender, text, sent_at)
                VALUES (:team, :sequence, :sender, :text, :sent)
                ON CONFLICT (team_id, sequence) DO NOTHING
                RETURNING sequence)
            DELETE FROM run_team_message WHERE team_id = :team AND sequence <= (
                SELECT sequence FROM run_team_message WHERE team_id = :team
                ORDER BY sequence DESC OFFSET :keep - (SELECT count(*) FROM inserted) LIMIT 1)
            """)
        .bind("team", teamId)
        .bind("sequence", message.sequence())
        .bind("sender", message.sender())
        .bind("text", message.text())
        .bind("sent", message.sentAt())
        .bind("keep", messages)
        .fetch()
        .rowsUpdated()
        .then();
  }

  /** A deleted team's context goes with it. */
  public Mono<Void> forget(UUID teamId) {
    return db.sql("DELETE FROM run_team_goal WHERE team_id = :team")
        .bind("team", teamId)
        .fetch()
        .rowsUpdated()
        .then(
            db.sql("DELETE FROM run_team_state WHERE team_id = :team")
                .bind("team", teamId)
                .fetch()
                .rowsUpdated())
        .then(
            db.sql("DELETE FROM run_team_message WHERE team_id = :team")
                .bind("team", teamId)
                .fetch()
                .rowsUpdated())
        .then();
  }

  /** The team's context within the bounds: state newest first, messages oldest first. */
  public Mono<TeamContext> find(UUID teamId) {
    Mono<String> goal =
        db.sql("SELECT goal FROM run_team_goal WHERE team_id = :team")
            .bind("team", teamId)
            .map(row -> row.get("goal", String.class))
            .one()
            .defaultIfEmpty("");
    Mono<List<TeamContext.StateLine>> state =
        db.sql(
                """
                SELECT kind, title, content FROM run_team_state
                WHERE team_id = :team AND status = 'active'
                ORDER BY updated_at DESC, entry_id DESC
                """)
            .bind("team", teamId)
            .map(
                row ->
                    new TeamContext.StateLine(
                        row.get("kind", String.class),
                        row.get("title", String.class),
                        row.get("content", String.class)))
            .all()
            .collectList()
            .map(this::boundedState);
    Mono<List<TeamContext.MessageLine>> recent =
        db.sql(
                """
                SELECT sender, text, sent_at FROM run_team_message WHERE team_id = :team
                ORDER BY sequence DESC LIMIT :keep
                """)
            .bind("team", teamId)
            .bind("keep", messages)
            .map(
                row ->
                    new TeamContext.MessageLine(
                        row.get("sender", String.class),
                        row.get("text", String.class),
                        row.get("sent_at", String.class)))
            .all()
            .collectList()
            .map(this::boundedMessages);
    // One statement at a time on the caller's transaction connection.
    return goal.flatMap(
        g -> state.flatMap(s -> recent.map(r -> new TeamContext(g.isEmpty() ? null : g, s, r))));
  }

  /** Entries, newest first, while they fit; the first that does not is cut to the room left. */
  private List<TeamContext.StateLine> boundedState(List<TeamContext.StateLine> lines) {
    List<TeamContext.StateLine> kept = new ArrayList<>();
    int room = stateMaxBytes;
    for (TeamContext.StateLine line : lines) {
      int size = bytes(line.kind()) + bytes(line.title()) + bytes(line.content()) + 8;
      if (size <= room) {
        kept.add(line);
        room -= size;
        continue;
      }
      int left = room - bytes(line.kind()) - bytes(line.title()) - 8;
      if (left > 32) {
        kept.add(new TeamContext.StateLine(line.kind(), line.title(), cut(line.content(), left)));
      }
      break;
    }
    return kept;
  }

  /** The most recent messages that fit, shown oldest first; the oldest kept may be cut. */
  private List<TeamContext.MessageLine> boundedMessages(List<TeamContext.MessageLine> newestFirst) {
    List<TeamContext.MessageLine> kept = new ArrayList<>();
    int room = messagesMaxBytes;
    for (TeamContext.MessageLine line : newestFirst) {
      int size = bytes(line.sender()) + bytes(line.text()) + bytes(line.sentAt()) + 8;
      if (size <= room) {
        kept.add(line);
        room -= size;
        continue;
      }
      int left = room - bytes(line.sender()) - bytes(line.sentAt()) - 8;
      if (left > 32) {
        kept.add(new TeamContext.MessageLine(line.sender(), cut(line.text(), left), line.sentAt()));
      }
      break;
    }
    Collections.reverse(kept);
    return kept;
  }

  private static int bytes(String text) {
    return TextBound.utf8Length(text);
  }

  /** The text cut to at most {@code maxBytes} UTF-8 bytes, marked as cut. */
  private static String cut(String text, int maxBytes) {
    String marker = " [cut]";
    int budget = maxBytes - marker.length();
    StringBuilder kept = new StringBuilder();
    int used = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      int size = TextBound.utf8Length(new String(Character.toChars(cp)));
      if (used + size > budget) {
        break;
      }
      kept.appendCodePoint(cp);
      used += size;
      i += Character.charCount(cp);
    }
    return kept + marker;
  }
}
