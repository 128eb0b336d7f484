package io.agentteams.scheduler.webhook.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

  private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

  @Test
  void signsLikeTheStandardWebhooksReferenceExample() {
    // The example of the Standard Webhooks specification's reference libraries.
    assertThat(
            WebhookSigner.signature(
                List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
                "msg_p5jXN8AQM9LWM0D4loKWxJek",
                1614265330,
                BODY))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void aKeyGivenAsBytesSignsTheSameWayAsTheSecretItIsTheKeyOf() {
    byte[] key = Base64.getDecoder().decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    assertThat(WebhookSigner.keyedSignature(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, BODY))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void duringARotationEachSecretSignsAndTheSignaturesAreSpaceSeparated() {
    String both =
        WebhookSigner.signature(
            List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            "msg_1",
            1614265330,
            BODY);
    String[] parts = both.split(" ");
    assertThat(parts).hasSize(2).allSatisfy(part -> assertThat(part).startsWith("v1,"));
    assertThat(parts[0])
        .isEqualTo(
            WebhookSigner.signature(
                List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "msg_1", 1614265330, BODY));
    assertThat(parts[1]).isNotEqualTo(parts[0]);
    assertThatThrownBy(() -> WebhookSigner.signature(List.of(), "msg_1", 1, BODY))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
