package io.agentteams.devstack.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromQlTest {

  @Test
  void findsTheMetricsOfAnExpressionWithTheServiceTheirSelectorNames() {
    Map<String, String> expected = new HashMap<>();
    expected.put("http_server_requests_seconds_bucket", "ui-gateway");
    expected.put("agentteams_outbox_pending", null);
    assertThat(
            PromQl.metrics(
                "histogram_quantile(0.99, sum by (le, uri) (rate(http_server_requests_seconds_bucket"
                    + "{service=\"ui-gateway\",uri!~\".*/(events|stream)\"}[5m])))"
                    + " / on() group_left max by (service) (agentteams_outbox_pending) > 0.5"))
        .isEqualTo(expected);
  }

  @Test
  void skipsFunctionsKeywordsNumbersDurationsAndLabelValues() {
    assertThat(
            PromQl.names(
                "sum(max by (owner) (agentteams_scheduler_queue_depth)) > 0 and on()"
                    + " deriv(max by (service) (agentteams_outbox_pending)[15m:1m]) > 0"
                    + " and on() sum(increase(x_total{outcome=\"dead-lettered\"}[10m])) == 0"))
        .containsExactly(
            "agentteams_scheduler_queue_depth", "agentteams_outbox_pending", "x_total");
  }
}
