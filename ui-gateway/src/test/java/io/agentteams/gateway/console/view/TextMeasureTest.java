package io.agentteams.gateway.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextMeasureTest {

  @Test
  void countsCodePointsAndUtf8BytesAsTheServicesDo() {
    assertThat(TextMeasure.of("a".repeat(80))).isEqualTo(new TextMeasure(80, 80));
    assertThat(TextMeasure.of("界".repeat(53) + "a")).isEqualTo(new TextMeasure(54, 160));
    assertThat(TextMeasure.of("🚀".repeat(40))).isEqualTo(new TextMeasure(40, 160));
    assertThat(TextMeasure.of("é")).isEqualTo(new TextMeasure(1, 2));
    assertThat(TextMeasure.of("🚀".repeat(40)).fits(80, 160)).isTrue();
    assertThat(TextMeasure.of("🚀".repeat(41)).fits(80, 160)).isFalse();
  }
}
