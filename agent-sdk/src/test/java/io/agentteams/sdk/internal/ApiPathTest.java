package io.agentteams.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ApiPathTest {

  @Test
  void encodesEachValueAsOneSegmentAndQueriesOnlyValuesThatArePresent() {
    assertThat(
            ApiPath.of("/api/v1/teams/{}/results/{}", "t 1", "a/b?c")
                .query("member_id", "ann & bob")
                .query("limit", null)
                .query("cursor", 3)
                .toString())
        .isEqualTo("/api/v1/teams/t%201/results/a%2Fb%3Fc?member_id=ann%20%26%20bob&cursor=3");
  }

  @Test
  void refusesTemplatesAndValuesThatDoNotMatch() {
    assertThatThrownBy(() -> ApiPath.of("/a/{}/b/{}", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ApiPath.of("/a/{}", "x", "y"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
