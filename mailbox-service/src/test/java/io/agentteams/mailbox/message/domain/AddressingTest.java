package io.agentteams.mailbox.message.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.problem.DomainFailure;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddressingTest {

  private static final List<String> ROSTER = List.of("lead", "researcher", "writer");

  @Test
  void aDirectMessageGoesToTheNamedMember() {
    assertThat(Addressing.direct("writer").recipients(Sender.member("lead"), ROSTER))
        .containsExactly("writer");
  }

  @Test
  void aMembersBroadcastGoesToEveryoneElseInRosterOrder() {
    assertThat(Addressing.everyone().recipients(Sender.member("researcher"), ROSTER))
        .containsExactly("lead", "writer");
  }

  @Test
  void anOwnersOrTheSystemsBroadcastGoesToEveryMember() {
    assertThat(Addressing.everyone().recipients(Sender.owner(), ROSTER)).isEqualTo(ROSTER);
    assertThat(Addressing.everyone().recipients(Sender.system(), ROSTER)).isEqualTo(ROSTER);
  }

  @Test
  void rejectsARecipientWhoIsNotAMember() {
    assertThatThrownBy(() -> Addressing.direct("ghost").recipients(Sender.owner(), ROSTER))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("unknown-recipient"));
  }

  @Test
  void rejectsAMemberWritingToItself() {
    assertThatThrownBy(() -> Addressing.direct("lead").recipients(Sender.member("lead"), ROSTER))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("self-message"));
  }

  @Test
  void rejectsNoRecipientAndBothKindsAtOnce() {
    assertThatThrownBy(() -> new Addressing(null, false).recipients(Sender.owner(), ROSTER))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("missing-recipient"));
    assertThatThrownBy(() -> new Addressing("lead", true).recipients(Sender.owner(), ROSTER))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("ambiguous-recipient"));
  }

  @Test
  void rejectsABroadcastThatWouldReachNobody() {
    assertThatThrownBy(
            () -> Addressing.everyone().recipients(Sender.member("solo"), List.of("solo")))
        .isInstanceOfSatisfying(
            DomainFailure.class, p -> assertThat(p.code()).isEqualTo("no-recipient"));
  }
}
