package io.agentteams.gateway.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunTimelineTest {

  @Test
  void groupsEntriesIntoThePlanEachRoundTheSynthesisAndTheEnd() {
    RunTimeline timeline =
        RunTimeline.of(
            List.of(
                entry(1, "run.started", 0),
                entry(2, "plan.requested", 0),
                entry(3, "plan.ready", 0),
                entry(4, "round.started", 1),
                entry(5, "task.assigned", 1),
                entry(6, "task.result", 1),
                entry(7, "round.started", 2),
                entry(8, "task.error", 2),
                entry(9, "synthesis.started", 2),
                entry(10, "run.complete", 2)));

    assertThat(timeline.phases())
        .extracting(RunTimeline.Phase::title)
        .containsExactly("Plan", "Round 1", "Round 2", "Synthesis");
    assertThat(timeline.phases().get(1).entries())
        .extracting(RunTimeline.Entry::kind)
        .containsExactly("round.started", "task.assigned", "task.result");
  }

  @Test
  void aRunEndedWithoutSynthesisEndsInItsOwnPhase() {
    RunTimeline timeline =
        RunTimeline.of(
            List.of(
                entry(1, "run.started", 0), entry(2, "plan.ready", 0), entry(3, "run.failed", 0)));

    assertThat(timeline.phases())
        .extracting(RunTimeline.Phase::title)
        .containsExactly("Plan", "End");
    assertThat(RunTimeline.of(List.of()).phases()).isEmpty();
  }

  private static RunTimeline.Entry entry(long sequence, String kind, int round) {
    return new RunTimeline.Entry(
        sequence, kind, "running", round, null, null, null, kind, Instant.EPOCH);
  }
}
