package io.agentteams.sdk.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class UsageTest {

  @Test
  void aModelNameTheSchedulerWouldRefuseIsRefusedWhereTheHandlerNamesIt() {
    for (String bad :
        new String[] {"", "  ", "gpt\n4", "model\u200b", "a\u2028b", "x".repeat(129), "\ud800"}) {
      assertThatIllegalArgumentException()
          .as("%s", bad)
          .isThrownBy(() -> Usage.of(10, 5, 0, bad))
          .withMessageContaining("model name");
    }
  }

  @Test
  void aPrintableModelNameIsKeptWithTheSplitAndTheTotal() {
    Usage usage = Usage.of(300, 120, 42, "claude-3.5 <sonnet> ü 模型".repeat(4));

    assertThat(usage.tokens()).isEqualTo(420);
    assertThat(usage.model()).hasSize(96);
    assertThat(Usage.of(1, 1, 0, "m".repeat(128)).model()).hasSize(128);
    assertThat(Usage.tokens(7).model()).isNull();
  }
}
