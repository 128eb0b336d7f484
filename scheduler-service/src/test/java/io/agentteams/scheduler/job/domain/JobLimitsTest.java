package io.agentteams.scheduler.job.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import io.agentteams.scheduler.job.JobProperties;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobLimitsTest {

  private static final JobLimits LIMITS =
      new JobProperties(4000, 8000, 4000, 8000, 8000, 4000, 8000, 8000, 6000, 12, 100, 100, 200)
          .limits();

  @Test
  void theTwelfthRequestOfAChainFitsAndTheThirteenthIsRefusedByName() {
    LIMITS.checkChainRequests(11);
    LimitExceededException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            LimitExceededException.class, () -> LIMITS.checkChainRequests(12));
    assertThat(refused.limit()).isEqualTo("scheduler.chain-max-requests");
    assertThat(refused.max()).isEqualTo(12);
    assertThat(refused.actual()).isEqualTo(13);
  }

  @Test
  void aTeamTakesAHundredRequestsAndSeparatelyAHundredReceipts() {
    LIMITS.checkTeamRequests(96, 4);
    assertThatThrownBy(() -> LIMITS.checkTeamRequests(97, 4))
        .isInstanceOfSatisfying(
            LimitExceededException.class,
            e -> assertThat(e.limit()).isEqualTo("scheduler.team-max-requests"));
    assertThat(LIMITS.receiptFits(99)).isTrue();
    assertThat(LIMITS.receiptFits(100)).isFalse();
  }

  @Test
  void textAnswersAreBoundedInCharactersAndBytesAndJsonAnswersInBytes() {
    assertThat(LIMITS.checkAnswer(InputKind.CLARIFICATION, "é".repeat(4000)).content())
        .hasSize(4000);
    assertThatThrownBy(() -> LIMITS.checkAnswer(InputKind.CLARIFICATION, "x".repeat(4001)))
        .hasMessageContaining("job.answer.max-chars");
    assertThatThrownBy(() -> LIMITS.checkAnswer(InputKind.CLARIFICATION, "😀".repeat(2001)))
        .hasMessageContaining("job.answer.max-bytes");
    String json7999 = "{\"a\":\"" + "x".repeat(7991) + "\"}";
    assertThat(json7999.getBytes(StandardCharsets.UTF_8)).hasSize(7999);
    LIMITS.checkAnswer(InputKind.INTERRUPT, json7999);
    LIMITS.checkAnswer(InputKind.INTERRUPT, json7999.replace("{\"a\"", "{\"ab\""));
    assertThatThrownBy(
            () -> LIMITS.checkAnswer(InputKind.INTERRUPT, json7999.replace("{\"a\"", "{\"abc\"")))
        .hasMessageContaining("job.answer-json.max-bytes");
    assertThatThrownBy(() -> LIMITS.checkAnswer(InputKind.CLARIFICATION, "a\udc00b"))
        .isInstanceOfSatisfying(
            DomainFailure.class, e -> assertThat(e.code()).isEqualTo("unpaired-surrogate"));
  }

  @Test
  void aLongAnswerIsCutOnACharacterBoundaryWithANoticeWithinTheByteLimit() {
    ResultText.Capped fits = ResultText.cap("é".repeat(3000), 6000);
    assertThat(fits.truncated()).isFalse();
    ResultText.Capped cut = ResultText.cap("😀".repeat(2000), 6000);
    assertThat(cut.truncated()).isTrue();
    assertThat(cut.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(6000);
    assertThat(cut.text()).contains("[truncated: the original was 8000 bytes; 6000 kept]");
    String kept = cut.text().substring(0, cut.text().indexOf("\n\n[truncated"));
    assertThat(kept.codePoints().allMatch(cp -> cp == "😀".codePointAt(0))).isTrue();
  }

  @Test
  void aFingerprintIgnoresRecipientOrderButNotTheTextOrTheSendingJob() {
    UUID job = UUID.randomUUID();
    String base = RequestFingerprint.of("owner", List.of("a", "b"), "text", null);
    assertThat(RequestFingerprint.of("owner", List.of("b", "a"), "text", null)).isEqualTo(base);
    assertThat(RequestFingerprint.of("owner", List.of("a", "b"), "text!", null)).isNotEqualTo(base);
    assertThat(RequestFingerprint.of("owner", List.of("a", "b"), "text", job)).isNotEqualTo(base);
    assertThat(RequestFingerprint.of("owner", List.of("ab"), "", null))
        .isNotEqualTo(RequestFingerprint.of("owner", List.of("a", "b"), "", null));
  }
}
