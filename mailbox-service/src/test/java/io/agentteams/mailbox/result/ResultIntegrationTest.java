package io.agentteams.mailbox.result;

import static io.agentteams.mailbox.support.MailboxApi.params;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.mailbox.MailboxServiceTest;
import io.agentteams.mailbox.support.MailboxApi;
import io.agentteams.mailbox.support.TeamFixture;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.roster.Rosters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@MailboxServiceTest
class ResultIntegrationTest {

  private static final Instant T0 = Instant.parse("2026-11-01T10:00:00Z");

  @Autowired WebTestClient web;
  @Autowired JsonMapper json;
  @Autowired KafkaTemplate<Object, Object> kafka;
  @Autowired EventCodec codec;
  @Autowired Rosters rosters;
  @Autowired CallerTokens tokens;

  private TeamFixture teams;
  private MailboxApi api;

  @BeforeEach
  void setUp() {
    teams = new TeamFixture(kafka, codec, rosters, tokens);
    api = new MailboxApi(web, json);
  }

  @Test
  void aFinishedJobIsKeptAsAResultAndReadInFullEvenAfterTheHistoryRotated() {
    var team = teams.team("owner-result", "lead", "researcher");
    String parent = "job-parent-" + UUID.randomUUID();
    JobResultRecorded finished =
        result(
            team,
            "job-" + UUID.randomUUID(),
            "researcher",
            "lead",
            "completed",
            parent,
            1,
            "r".repeat(2000),
            "The answer is 42. " + "a".repeat(4000));
    publish(team, finished);
    awaitResult(team, finished.jobId());
    for (int i = 0; i < 101; i++) {
      api.direct(team.id(), teams.member(team, "lead"), "researcher", "rotate " + i);
    }

    MailboxApi.Response response =
        api.result(team.id(), teams.member(team, "lead"), finished.jobId());

    assertThat(response.status()).isEqualTo(200);
    JsonNode result = response.body();
    assertThat(result.get("member").asString()).isEqualTo("researcher");
    assertThat(result.get("requester").asString()).isEqualTo("lead");
    assertThat(result.get("status").asString()).isEqualTo("completed");
    assertThat(result.get("parent_job_id").asString()).isEqualTo(parent);
    assertThat(result.get("conversation_id").asString()).isEqualTo("conv-researcher");
    assertThat(result.get("run_id").asString()).isEqualTo("run-" + finished.jobId());
    assertThat(Instant.parse(result.get("created_at").asString())).isEqualTo(T0.plusSeconds(1));
    assertThat(result.get("started_at").isNull()).isFalse();
    assertThat(result.get("finished_at").isNull()).isFalse();
    assertThat(result.get("request").get("text").asString()).hasSize(500);
    assertThat(result.get("request").get("truncated").asBoolean()).isTrue();
    assertThat(result.get("answer").get("text").asString()).isEqualTo(finished.answer());
    assertThat(result.get("answer").get("truncated").asBoolean()).isFalse();
    assertThat(result.get("answer").get("available").asBoolean()).isTrue();
  }

  @Test
  void aCancelledJobHasNoAvailableAnswerAndARepeatedEventKeepsTheFirstRecord() {
    var team = teams.team("owner-cancelled", "lead", "researcher");
    String job = "job-" + UUID.randomUUID();
    publish(
        team,
        result(
            team, job, "researcher", "owner", "cancelled", null, 1, "Do it", "Cancelled by owner"));
    publish(team, result(team, job, "researcher", "owner", "completed", null, 1, "Do it", "Other"));
    awaitResult(team, job);
    String marker = "job-" + UUID.randomUUID();
    publish(team, result(team, marker, "lead", "owner", "completed", null, 2, "Marker", "Done"));
    awaitResult(team, marker);

    JsonNode result = api.result(team.id(), teams.owner("owner-cancelled"), job).body();

    assertThat(result.get("status").asString()).isEqualTo("cancelled");
    assertThat(result.get("answer").get("available").asBoolean()).isFalse();
    assertThat(result.get("answer").get("text").asString()).isEqualTo("Cancelled by owner");
  }

  @Test
  void searchPagesNewestRequestFirstWithFiltersAppliedBeforePaging() {
    var team = teams.team("owner-search", "lead", "researcher", "critic");
    String parent = "job-p-" + UUID.randomUUID();
    List<String> jobs = new ArrayList<>();
    for (int i = 1; i <= 12; i++) {
      String member = i % 2 == 0 ? "researcher" : "critic";
      String job = "job-" + i + "-" + UUID.randomUUID();
      jobs.add(job);
      publish(
          team,
          result(
              team,
              job,
              member,
              "lead",
              "completed",
              i <= 9 ? parent : null,
              i,
              "Question " + i,
              i % 3 == 0 ? "Contains the RELEASE evidence" : "Nothing here"));
    }
    awaitResult(team, jobs.get(11));
    String owner = teams.owner("owner-search");

    JsonNode firstPage = api.results(team.id(), owner, params()).body();
    // A newer result arrives between pages; it must not shift the next page.
    String late = "job-late-" + UUID.randomUUID();
    publish(team, result(team, late, "lead", "owner", "completed", null, 100, "Late", "Late"));
    awaitResult(team, late);
    JsonNode secondPage =
        api.results(team.id(), owner, params("cursor", firstPage.get("next_cursor").asString()))
            .body();
    JsonNode byMember = api.results(team.id(), owner, params("member_id", "critic")).body();
    JsonNode byParent = api.results(team.id(), owner, params("job_id", parent, "limit", 20)).body();
    JsonNode byAnswer =
        api.results(team.id(), owner, params("query", "release EVIDENCE", "limit", 20)).body();
    JsonNode byRequest = api.results(team.id(), owner, params("query", "question 1")).body();

    assertThat(jobIds(firstPage)).containsExactlyElementsOf(reversed(jobs).subList(0, 8));
    assertThat(jobIds(secondPage)).containsExactlyElementsOf(reversed(jobs).subList(8, 12));
    assertThat(secondPage.get("next_cursor").isNull()).isTrue();
    assertThat(byMember.get("results").findValuesAsString("member"))
        .hasSize(6)
        .containsOnly("critic");
    assertThat(byParent.get("results")).hasSize(9);
    assertThat(byAnswer.get("results")).hasSize(4);
    assertThat(byAnswer.get("results").get(0).get("answer").get("text").asString())
        .isEqualTo("Contains the RELEASE evidence");
    assertThat(jobIds(byRequest))
        .containsExactlyInAnyOrder(jobs.get(9), jobs.get(10), jobs.get(11), jobs.get(0));
  }

  @Test
  void anotherTeamsOrOwnersResultIsNotFound() {
    var team = teams.team("owner-private", "lead", "researcher");
    var other = teams.team("owner-private", "lead", "researcher");
    String job = "job-" + UUID.randomUUID();
    publish(team, result(team, job, "researcher", "lead", "completed", null, 1, "Q", "A"));
    awaitResult(team, job);

    assertThat(api.result(other.id(), teams.owner("owner-private"), job).status()).isEqualTo(404);
    assertThat(api.result(team.id(), teams.owner("someone-else"), job).status()).isEqualTo(404);
    assertThat(api.result(team.id(), teams.member(other, "lead"), job).status()).isEqualTo(404);
    assertThat(api.results(team.id(), teams.owner("someone-else"), params()).status())
        .isEqualTo(404);
  }

  @Test
  void resultResponsesStayWithinTheByteBudgetForEscapedAndMultiByteAnswers() {
    var team = teams.team("owner-result-budget", "lead", "researcher");
    List<String> jobs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String job = "job-" + i + "-" + UUID.randomUUID();
      jobs.add(job);
      String answer = i % 2 == 0 ? "\u0002".repeat(6000) : "\uD83D\uDE00\"".repeat(1200);
      publish(
          team,
          result(
              team,
              job,
              "researcher",
              "lead",
              "completed",
              null,
              i,
              "\\\"\u0003".repeat(400),
              answer));
    }
    awaitResult(team, jobs.get(19));
    String owner = teams.owner("owner-result-budget");

    MailboxApi.Response escaped = api.result(team.id(), owner, jobs.get(0));
    assertThat(escaped.bytes().length).isLessThanOrEqualTo(24_000);
    assertThat(escaped.body().get("answer").get("truncated").asBoolean()).isTrue();
    assertThat("\u0002".repeat(6000))
        .startsWith(escaped.body().get("answer").get("text").asString());
    MailboxApi.Response multiByte = api.result(team.id(), owner, jobs.get(1));
    assertThat(multiByte.bytes().length).isLessThanOrEqualTo(24_000);
    assertThat(multiByte.body().get("answer").get("truncated").asBoolean()).isFalse();

    List<String> found = new ArrayList<>();
    String cursor = null;
    do {
      MailboxApi.Response page =
          api.results(team.id(), owner, params("limit", 20, "cursor", cursor));
      assertThat(page.bytes().length).isLessThanOrEqualTo(24_000);
      for (JsonNode summary : page.body().get("results")) {
        found.add(summary.get("job_id").asString());
        assertThat(summary.get("answer").get("text").asString().getBytes(StandardCharsets.UTF_8))
            .hasSizeLessThanOrEqualTo(500);
        assertThat(summary.get("answer").get("truncated").asBoolean()).isTrue();
      }
      cursor = page.body().get("next_cursor").asStringOpt().orElse(null);
    } while (cursor != null);
    assertThat(found).containsExactlyElementsOf(reversed(jobs));
  }

  private JobResultRecorded result(
      TeamFixture.Team team,
      String job,
      String member,
      String requester,
      String status,
      @Nullable String parent,
      int createdSecond,
      String request,
      String answer) {
    Instant created = T0.plusSeconds(createdSecond);
    return new JobResultRecorded(
        job,
        team.id().toString(),
        member,
        requester,
        status,
        parent,
        "conv-" + member,
        "run-" + job,
        request,
        answer,
        false,
        created.toString(),
        created.plusSeconds(1).toString(),
        created.plusSeconds(30).toString());
  }

  private void publish(TeamFixture.Team team, JobResultRecorded result) {
    var envelope = codec.envelope(result, team.id().toString(), team.ownerId(), 1, null);
    kafka.send(Topics.SCHEDULER_EVENTS, team.id().toString(), codec.write(envelope)).join();
  }

  private void awaitResult(TeamFixture.Team team, String job) {
    String owner = teams.owner(team.ownerId());
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.result(team.id(), owner, job).status() == 200);
  }

  private static List<String> jobIds(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("results").forEach(r -> ids.add(r.get("job_id").asString()));
    return ids;
  }

  private static List<String> reversed(List<String> values) {
    List<String> copy = new ArrayList<>(values);
    java.util.Collections.reverse(copy);
    return copy;
  }
}
