package io.agentteams.gateway.console.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class ApiResultTest {

  @Test
  void aRefusalKeepsTheApisOwnStatus() {
    assertThat(new ApiResult(404, null).problemStatus()).isEqualTo(HttpStatus.NOT_FOUND);
    assertThat(new ApiResult(422, null).problemStatus())
        .isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
    assertThat(new ApiResult(503, null).problemStatus()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
  }

  @Test
  void aCallThatNeverAnsweredIsABadGateway() {
    assertThat(new ApiResult(0, null).problemStatus()).isEqualTo(HttpStatus.BAD_GATEWAY);
  }
}
