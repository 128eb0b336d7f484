package io.agentteams.mailbox.message.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class MessageTest {

  private static final UUID TEAM = UUID.randomUUID();
  private static final List<String> ROSTER = List.of("lead", "researcher", "writer");

  private static Message compose(
      Sender sender, Addressing addressing, @Nullable SystemKind kind, @Nullable String text) {
    return Message.compose(
        UUID.randomUUID(),
        TEAM,
        "alice",
        sender,
        addressing,
        kind,
        ROSTER,
        new Message.Provenance("job-1", "conv-lead"),
        "client-1",
        text,
        MessageLimits.defaults());
  }

  @Test
  void composesAMessageWithItsProvenance() {
    Message message = compose(Sender.member("lead"), Addressing.direct("writer"), null, "Hi");

    assertThat(message.kind()).isEqualTo(MessageKind.DIRECT);
    assertThat(message.recipients()).containsExactly("writer");
    assertThat(message.jobId()).isEqualTo("job-1");
    assertThat(message.conversationId()).isEqualTo("conv-lead");
    assertThat(message.clientMessageId()).isEqualTo("client-1");
  }

  @Test
  void rejectsBlankOverlongAndNulText() {
    assertThatThrownBy(() -> compose(Sender.owner(), Addressing.everyone(), null, "  "))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("blank-field"));
    assertThatThrownBy(() -> compose(Sender.owner(), Addressing.everyone(), null, "x".repeat(4001)))
        .isInstanceOfSatisfying(
            LimitExceededException.class,
            p -> assertThat(p.limit()).isEqualTo("mailbox.message.max-chars"));
    assertThatThrownBy(() -> compose(Sender.owner(), Addressing.everyone(), null, "a\u0000"))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("nul-character"));
  }

  @Test
  void onlyTheSystemSendsSystemMessagesAndItAlwaysSaysWhatTheyReport() {
    assertThat(
            compose(Sender.system(), Addressing.everyone(), SystemKind.RUN_COMPLETE, "Done")
                .systemKind())
        .isEqualTo(SystemKind.RUN_COMPLETE);
    assertThatThrownBy(
            () -> compose(Sender.member("lead"), Addressing.everyone(), SystemKind.TASK_ERROR, "x"))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("system-kind-not-allowed"));
    assertThatThrownBy(() -> compose(Sender.system(), Addressing.everyone(), null, "x"))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("missing-system-kind"));
    assertThatThrownBy(() -> SystemKind.fromWire("task.bogus"))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("unknown-system-kind"));
  }

  @Test
  void aRetryIsTheSameRequestOnlyWithTheSameContent() {
    Message sent = compose(Sender.member("lead"), Addressing.direct("writer"), null, "Hi");

    assertThat(
            sent.sameRequestAs(
                compose(Sender.member("lead"), Addressing.direct("writer"), null, "Hi")))
        .isTrue();
    assertThat(
            sent.sameRequestAs(
                compose(Sender.member("lead"), Addressing.direct("writer"), null, "Ho")))
        .isFalse();
    assertThat(
            sent.sameRequestAs(
                compose(Sender.member("lead"), Addressing.direct("researcher"), null, "Hi")))
        .isFalse();
  }
}
