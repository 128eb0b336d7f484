package io.agentteams.contracts.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class A2aTaskStateTest {

  private static final Map<String, String> TASK_STATE_OF_JOB_STATE =
      Map.of(
          "queued", A2aTaskState.SUBMITTED,
          "admitted", A2aTaskState.SUBMITTED,
          "waiting_worker", A2aTaskState.SUBMITTED,
          "running", A2aTaskState.WORKING,
          "unknown", A2aTaskState.WORKING,
          "waiting_input", A2aTaskState.INPUT_REQUIRED,
          "completed", A2aTaskState.COMPLETED,
          "failed", A2aTaskState.FAILED,
          "cancelled", A2aTaskState.CANCELED,
          "interrupted", A2aTaskState.CANCELED);

  private static final Set<String> FINISHED =
      Set.of("completed", "failed", "cancelled", "interrupted");

  @Test
  void everyJobStateHasTheTaskStateBothSidesShow() {
    assertThat(TASK_STATE_OF_JOB_STATE).containsOnlyKeys(JobStateChanged.STATES);
    JobStateChanged.STATES.forEach(
        state ->
            assertThat(A2aTaskState.ofJob(state))
                .as(state)
                .isEqualTo(TASK_STATE_OF_JOB_STATE.get(state)));
  }

  @Test
  void aStateTheContractDoesNotNameShowsAsNotYetStarted() {
    assertThat(A2aTaskState.ofJob("")).isEqualTo(A2aTaskState.SUBMITTED);
    assertThat(A2aTaskState.ofJob("paused")).isEqualTo(A2aTaskState.SUBMITTED);
  }

  @Test
  void onlyFinishedJobStatesAreFinished() {
    JobStateChanged.STATES.forEach(
        state ->
            assertThat(JobStateChanged.isUnfinished(state))
                .as(state)
                .isEqualTo(!FINISHED.contains(state)));
  }
}
