package io.agentteams.mailbox.result.application;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResultRecorderTest {

  @Test
  void keepsTextAsItIsExceptCharactersTheDatabaseCannotHold() {
    assertThat(ResultRecorder.storable("plain \uD83D\uDE00 \u6F22"))
        .isEqualTo("plain \uD83D\uDE00 \u6F22");
    assertThat(ResultRecorder.storable("a\u0000b")).isEqualTo("a\uFFFDb");
    assertThat(ResultRecorder.storable("lone \uD83D and \uDE00"))
        .isEqualTo("lone \uFFFD and \uFFFD");
  }
}
