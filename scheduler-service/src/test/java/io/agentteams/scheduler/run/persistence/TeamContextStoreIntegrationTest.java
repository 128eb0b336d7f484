package io.agentteams.scheduler.run.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.run.RunProperties;
import io.agentteams.scheduler.run.domain.TeamContext;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/** A team's recent messages for its runs' context: the most recent few, each once. */
@SchedulerServiceTest
class TeamContextStoreIntegrationTest {

  @Autowired TeamContextStore context;
  @Autowired RunProperties properties;
  @Autowired DatabaseClient db;

  @Test
  void aTeamKeepsItsMostRecentMessagesAndARedeliveredOneChangesNothing() {
    UUID team = UUID.randomUUID();
    int keep = properties.contextMessages();
    for (int sequence = 1; sequence <= keep + 4; sequence++) {
      context.message(team, message(team, sequence)).block(Duration.ofSeconds(10));
    }
    assertThat(sequences(team)).isEqualTo(range(5, keep + 4));

    // The newest, delivered again: nothing is added and nothing more is dropped.
    context.message(team, message(team, keep + 4)).block(Duration.ofSeconds(10));
    // The next one takes the oldest's place.
    context.message(team, message(team, keep + 5)).block(Duration.ofSeconds(10));
    assertThat(sequences(team)).isEqualTo(range(6, keep + 5));

    TeamContext read = context.find(team).block(Duration.ofSeconds(10));
    assertThat(read.messages())
        .extracting(TeamContext.MessageLine::text)
        .containsExactlyElementsOf(range(6, keep + 5).stream().map(n -> "note " + n).toList());
  }

  private static MessageQueued message(UUID team, long sequence) {
    return new MessageQueued(
        UUID.randomUUID().toString(),
        team.toString(),
        sequence,
        "direct",
        "member",
        "ada",
        null,
        List.of(),
        null,
        null,
        null,
        "note " + sequence,
        "2026-12-02T10:00:" + String.format("%02d", sequence % 60) + "Z");
  }

  private List<Long> sequences(UUID team) {
    return db.sql("SELECT sequence FROM run_team_message WHERE team_id = :team ORDER BY sequence")
        .bind("team", team)
        .map(row -> row.get("sequence", Long.class))
        .all()
        .collectList()
        .block(Duration.ofSeconds(10));
  }

  private static List<Long> range(long from, long to) {
    return java.util.stream.LongStream.rangeClosed(from, to).boxed().toList();
  }
}
