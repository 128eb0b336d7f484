package io.agentteams.scheduler.job.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.scheduler.JobStateChanged;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class JobStateTest {

  /**
   * Other services read these names from {@code JobStateChanged} and the jobs API (the team as an
   * A2A agent maps each to a task state), so a state added here must be added to the contract.
   */
  @Test
  void everyJobStateIsOneTheContractNames() {
    assertThat(Arrays.stream(JobState.values()).map(JobState::wire))
        .containsExactlyInAnyOrderElementsOf(JobStateChanged.STATES);
  }

  @Test
  void aJobIsFinishedExactlyWhenTheContractSaysItHoldsNoMoreWork() {
    for (JobState state : JobState.values()) {
      assertThat(state.finished())
          .as(state.wire())
          .isEqualTo(!JobStateChanged.isUnfinished(state.wire()));
    }
  }
}
