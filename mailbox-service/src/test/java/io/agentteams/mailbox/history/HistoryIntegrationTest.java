package io.agentteams.mailbox.history;

import static io.agentteams.mailbox.support.MailboxApi.params;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.mailbox.MailboxServiceTest;
import io.agentteams.mailbox.support.DeliveryProbe;
import io.agentteams.mailbox.support.MailboxApi;
import io.agentteams.mailbox.support.TeamFixture;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@MailboxServiceTest
class HistoryIntegrationTest {

  private static final int BUDGET = 24_000;

  @Autowired WebTestClient web;
  @Autowired JsonMapper json;
  @Autowired KafkaTemplate<Object, Object> kafka;
  @Autowired EventCodec codec;
  @Autowired Rosters rosters;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;

  private TeamFixture teams;
  private MailboxApi api;
  private DeliveryProbe probe;

  @BeforeEach
  void setUp() {
    teams = new TeamFixture(kafka, codec, rosters, tokens);
    api = new MailboxApi(web, json);
    probe = new DeliveryProbe(db);
  }

  @Test
  void pagesStayStableWhileNewMessagesArrive() {
    var team = teams.team("owner-stable", "lead", "reader");
    String lead = teams.member(team, "lead");
    String owner = teams.owner("owner-stable");
    for (int i = 1; i <= 30; i++) {
      api.direct(team.id(), lead, "reader", "original " + i);
    }

    List<Long> seen = new ArrayList<>();
    String cursor = null;
    int arrivals = 0;
    do {
      MailboxApi.Response page = api.history(team.id(), owner, params("cursor", cursor));
      assertThat(page.status()).isEqualTo(200);
      page.body().get("records").forEach(r -> seen.add(r.get("sequence").asLong()));
      assertThat(page.body().get("records").size()).isLessThanOrEqualTo(8);
      cursor = page.body().get("next_cursor").asStringOpt().orElse(null);
      // New messages arrive between pages; none of them may shift or join the pages.
      for (int i = 0; i < 5; i++) {
        api.direct(team.id(), lead, "reader", "arrival " + arrivals++);
      }
    } while (cursor != null);

    assertThat(seen).containsExactlyElementsOf(descending(30, 1));
  }

  @Test
  void filtersApplyBeforePaging() {
    var team = teams.team("owner-filters", "lead", "reader", "critic");
    UUID job = UUID.randomUUID();
    for (int i = 1; i <= 12; i++) {
      api.direct(team.id(), teams.member(team, "lead", job), "reader", "lead 100% sure " + i);
      api.direct(team.id(), teams.member(team, "critic"), "lead", "critic says_" + i);
      api.broadcast(team.id(), teams.member(team, "reader"), "Reader NOTE " + i);
    }
    String owner = teams.owner("owner-filters");

    JsonNode byJob = api.history(team.id(), owner, params("job_id", job.toString())).body();
    JsonNode byCritic = api.history(team.id(), owner, params("member_id", "critic")).body();
    JsonNode toOrFromLead =
        api.history(team.id(), owner, params("member_id", "lead", "limit", 20)).body();
    JsonNode literalPercent =
        api.history(team.id(), owner, params("query", "100%", "limit", 20)).body();
    JsonNode literalUnderscore =
        api.history(team.id(), owner, params("query", "s_1", "limit", 20)).body();
    JsonNode caseInsensitive =
        api.history(team.id(), owner, params("query", "reader note", "limit", 20)).body();

    assertThat(byJob.get("records")).hasSize(8);
    assertThat(byJob.get("records").findValuesAsString("sender")).containsOnly("lead");
    assertThat(byJob.get("records").findValuesAsString("job_id")).containsOnly(job.toString());
    assertThat(byJob.get("next_cursor").isNull()).isFalse();
    assertThat(byCritic.get("records")).hasSize(8);
    assertThat(byCritic.get("records").findValuesAsString("sender")).containsOnly("critic");
    assertThat(toOrFromLead.get("records")).hasSize(20);
    assertThat(toOrFromLead.get("records").findValuesAsString("sender"))
        .containsOnly("lead", "critic");
    assertThat(literalPercent.get("records")).hasSize(12);
    assertThat(literalUnderscore.get("records").findValuesAsString("text"))
        .containsExactlyInAnyOrder(
            "critic says_1", "critic says_10", "critic says_11", "critic says_12");
    assertThat(caseInsensitive.get("records")).hasSize(12);
  }

  @Test
  void aCursorUsedWithOtherFiltersOrAnotherTeamIsRejectedAndAForgedOneToo() {
    var team = teams.team("owner-mismatch", "lead", "reader");
    var other = teams.team("owner-mismatch", "lead", "reader");
    for (int i = 0; i < 10; i++) {
      api.direct(team.id(), teams.member(team, "lead"), "reader", "note " + i);
    }
    String owner = teams.owner("owner-mismatch");
    String cursor =
        api.history(team.id(), owner, params("query", "note")).body().get("next_cursor").asString();

    MailboxApi.Response otherQuery =
        api.history(team.id(), owner, params("query", "other", "cursor", cursor));
    MailboxApi.Response noQuery = api.history(team.id(), owner, params("cursor", cursor));
    MailboxApi.Response otherTeam =
        api.history(other.id(), owner, params("query", "note", "cursor", cursor));
    MailboxApi.Response onResults =
        api.results(team.id(), owner, params("query", "note", "cursor", cursor));
    MailboxApi.Response forged =
        api.history(team.id(), owner, params("cursor", "bm90LWEtY3Vyc29y"));
    MailboxApi.Response sameFilters =
        api.history(team.id(), owner, params("query", "note", "cursor", cursor));

    assertThat(otherQuery.status()).isEqualTo(400);
    assertThat(otherQuery.body().get("code").asString()).isEqualTo("cursor-filter-mismatch");
    assertThat(noQuery.body().get("code").asString()).isEqualTo("cursor-filter-mismatch");
    assertThat(otherTeam.body().get("code").asString()).isEqualTo("cursor-filter-mismatch");
    assertThat(onResults.body().get("code").asString()).isEqualTo("cursor-filter-mismatch");
    assertThat(forged.status()).isEqualTo(400);
    assertThat(forged.body().get("code").asString()).isEqualTo("invalid-cursor");
    assertThat(sameFilters.status()).isEqualTo(200);
    assertThat(sameFilters.body().get("records")).hasSize(2);
  }

  @Test
  void theRecordKeepsTheNewestHundredAndACursorAnchoredBeyondItExpires() {
    var team = teams.team("owner-rotation", "lead", "reader");
    String lead = teams.member(team, "lead");
    String owner = teams.owner("owner-rotation");
    for (int i = 1; i <= 10; i++) {
      api.direct(team.id(), lead, "reader", "early " + i);
    }
    JsonNode firstPage = api.history(team.id(), owner, params("limit", 5)).body();
    String anchoredAtSix = firstPage.get("next_cursor").asString();
    for (int i = 1; i <= 100; i++) {
      api.direct(team.id(), lead, "reader", "late " + i);
    }

    JsonNode expired = api.history(team.id(), owner, params("cursor", anchoredAtSix)).body();
    List<Long> retained = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page = api.history(team.id(), owner, params("limit", 20, "cursor", cursor)).body();
      page.get("records").forEach(r -> retained.add(r.get("sequence").asLong()));
      cursor = page.get("next_cursor").asStringOpt().orElse(null);
    } while (cursor != null);

    assertThat(expired.get("cursor_expired").asBoolean()).isTrue();
    assertThat(expired.get("records")).isEmpty();
    assertThat(expired.get("next_cursor").isNull()).isTrue();
    assertThat(retained).containsExactlyElementsOf(descending(110, 11));
    // Rotated out of the record, still in the reader's inbox until read.
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.queued(team.id()) == 0);
    JsonNode inbox = api.inbox(team.id(), teams.member(team, "reader"), null, 1).body();
    assertThat(inbox.get("messages").get(0).get("text").asString()).isEqualTo("early 1");
  }

  @Test
  void everyResponseStaysWithinTheByteBudgetForEscapedAndMultiByteText() {
    var team = teams.team("owner-budget", "lead", "reader");
    String lead = teams.member(team, "lead");
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String text = heavy(i);
      texts.add(text);
      api.direct(team.id(), lead, "reader", text);
    }
    String owner = teams.owner("owner-budget");

    // History, page by page: each response within budget, every message once.
    List<JsonNode> records = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      MailboxApi.Response page =
          api.history(team.id(), owner, params("limit", 20, "cursor", cursor));
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.bytes().length).isLessThanOrEqualTo(BUDGET);
      assertThat(page.body().get("records")).isNotEmpty();
      page.body().get("records").forEach(records::add);
      cursor = page.body().get("next_cursor").asStringOpt().orElse(null);
      pages++;
    } while (cursor != null);
    assertThat(pages).isGreaterThan(1);
    assertThat(records).hasSize(20);
    for (JsonNode record : records) {
      String sent = texts.get((int) record.get("sequence").asLong() - 1);
      String shown = record.get("text").asString();
      assertThat(sent).startsWith(shown);
      assertThat(record.get("truncated").asBoolean()).isEqualTo(!shown.equals(sent));
      assertThat(shown.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(6000);
    }
    assertThat(records).anyMatch(r -> r.get("truncated").asBoolean());

    // The recent messages for the team context, and the reader's inbox, keep the same budget.
    MailboxApi.Response recent = api.recent(team.id(), owner);
    assertThat(recent.bytes().length).isLessThanOrEqualTo(BUDGET);
    assertThat(recent.body().get("messages")).isNotEmpty();
    assertThat(recent.body().get("messages").get(0).get("sequence").asLong()).isEqualTo(20);
    assertThat(recent.body().get("omitted").asInt())
        .as("the messages left out of the eight newest are counted")
        .isPositive()
        .isEqualTo(8 - recent.body().get("messages").size());
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> probe.queued(team.id()) == 0);
    List<Long> inboxSequences = new ArrayList<>();
    while (true) {
      MailboxApi.Response page = api.inbox(team.id(), teams.member(team, "reader"), null, null);
      assertThat(page.bytes().length).isLessThanOrEqualTo(BUDGET);
      if (page.body().get("messages").isEmpty()) {
        break;
      }
      page.body().get("messages").forEach(m -> inboxSequences.add(m.get("sequence").asLong()));
    }
    assertThat(inboxSequences).isSorted().hasSize(20).startsWith(1L).endsWith(20L);
    assertThat(new HashSet<>(inboxSequences)).hasSize(20);
  }

  @Test
  void theRecentMessagesAreTheEightNewestNewestFirstForOwnerMembersAndServices() {
    var team = teams.team("owner-recent", "lead", "reader");
    for (int i = 1; i <= 12; i++) {
      api.direct(team.id(), teams.member(team, "lead"), "reader", "message " + i);
    }

    JsonNode forOwner = api.recent(team.id(), teams.owner("owner-recent")).body();
    JsonNode forMember = api.recent(team.id(), teams.member(team, "reader")).body();
    JsonNode forGateway = api.recent(team.id(), teams.service("ui-gateway")).body();

    List<Long> sequences = new ArrayList<>();
    forOwner.get("messages").forEach(m -> sequences.add(m.get("sequence").asLong()));
    assertThat(sequences).containsExactlyElementsOf(descending(12, 5));
    assertThat(forMember.get("messages")).isEqualTo(forOwner.get("messages"));
    assertThat(forGateway.get("messages")).isEqualTo(forOwner.get("messages"));
    assertThat(api.recent(team.id(), teams.owner("someone-else")).status()).isEqualTo(404);
  }

  @Test
  void aLimitOutsideOneToTwentyIsRejected() {
    var team = teams.team("owner-limits", "lead", "reader");
    String owner = teams.owner("owner-limits");

    assertThat(api.history(team.id(), owner, params("limit", 0)).status()).isEqualTo(400);
    assertThat(api.history(team.id(), owner, params("limit", 21)).body().get("code").asString())
        .isEqualTo("invalid-limit");
    assertThat(api.history(team.id(), owner, params("limit", 20)).status()).isEqualTo(200);
  }

  /** Texts of the kinds that grow when JSON-escaped or take several bytes per character. */
  private static String heavy(int i) {
    String unit =
        switch (i % 5) {
          case 0 -> "\u0001"; // escaped as \u0001: 6 bytes for one
          case 1 -> "\"\\"; // escaped as \" and \\
          case 2 -> "\uD83D\uDE00"; // one emoji, 4 UTF-8 bytes
          case 3 -> "\u6F22"; // one CJK character, 3 UTF-8 bytes
          default -> "\n\t\u001F\u00E9\uD83D\uDE80</script>";
        };
    StringBuilder text = new StringBuilder("#" + i + " ");
    while (text.codePointCount(0, text.length()) + unit.codePointCount(0, unit.length()) <= 4000
        && (text + unit).getBytes(StandardCharsets.UTF_8).length <= 8000) {
      text.append(unit);
    }
    return text.toString();
  }

  private static List<Long> descending(long from, long to) {
    List<Long> values = new ArrayList<>();
    for (long v = from; v >= to; v--) {
      values.add(v);
    }
    return values;
  }
}
