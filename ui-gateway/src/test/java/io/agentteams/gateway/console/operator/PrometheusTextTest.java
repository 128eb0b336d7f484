package io.agentteams.gateway.console.operator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  @Test
  void readsSamplesWithAndWithoutLabelsAndSkipsComments() {
    PrometheusText text =
        PrometheusText.parse(
            """
            # HELP agentteams_scheduler_slots_capacity Admission slots configured
            # TYPE agentteams_scheduler_slots_capacity gauge
            agentteams_scheduler_slots_capacity{service="scheduler-service"} 8.0
            agentteams_scheduler_queue_depth{owner="alice",service="scheduler-service"} 3.0
            agentteams_scheduler_queue_depth{owner="b\\"ob",service="scheduler-service"} 1.0
            agentteams_outbox_pending 0.0
            not a sample
            """);
    assertThat(text.value("agentteams_scheduler_slots_capacity")).hasValue(8.0);
    assertThat(text.value("agentteams_outbox_pending")).hasValue(0.0);
    assertThat(text.all("agentteams_scheduler_queue_depth"))
        .extracting(sample -> sample.labels().get("owner"))
        .containsExactly("alice", "b\"ob");
    assertThat(text.value("missing")).isEmpty();
  }
}
