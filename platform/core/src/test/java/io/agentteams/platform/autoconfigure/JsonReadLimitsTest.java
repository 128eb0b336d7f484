package io.agentteams.platform.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.StandardEnvironment;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.json.JsonMapper;

class JsonReadLimitsTest {

  @Test
  void everyMapperMadeAfterStartRefusesDeepLongAndHugeInput() {
    new JsonReadLimits().postProcessEnvironment(new StandardEnvironment(), new SpringApplication());
    JsonMapper mapper = JsonMapper.builder().build();

    assertThat(mapper.readTree(nested(64))).isNotNull();
    assertThatThrownBy(() -> mapper.readTree(nested(65)))
        .isInstanceOf(StreamConstraintsException.class)
        .hasMessageContaining("nesting depth");
    assertThatThrownBy(() -> mapper.readTree("{\"n\":" + "9".repeat(101) + "}"))
        .isInstanceOf(StreamConstraintsException.class);
    assertThatThrownBy(() -> mapper.readTree("{\"" + "k".repeat(1_001) + "\":1}"))
        .isInstanceOf(StreamConstraintsException.class);
    assertThatThrownBy(() -> mapper.readTree("\"" + "s".repeat(1_048_577) + "\""))
        .isInstanceOf(StreamConstraintsException.class);
  }

  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }
}
