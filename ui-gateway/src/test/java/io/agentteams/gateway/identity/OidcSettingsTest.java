package io.agentteams.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.platform.token.TokenRevocations;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The gateway's identity settings start only when an OpenID Connect provider is fully named. */
class OidcSettingsTest {

  private final ApplicationContextRunner gateway =
      new ApplicationContextRunner().withUserConfiguration(Identity.class);

  @Test
  void aKeySetWithoutIssuerOrAudienceRefusesToStartAndNamesTheIssuerSetting() {
    gateway
        .withPropertyValues("agentteams.gateway.identity.oidc.jwk-set-uri=http://127.0.0.1:1/jwks")
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(EdgeIdentityProperties.Oidc.ISSUER_URI));
  }

  @Test
  void anIssuerWithoutAudienceRefusesToStartAndNamesTheAudienceSetting() {
    gateway
        .withPropertyValues(
            "agentteams.gateway.identity.oidc.issuer-uri=https://idp.example.test",
            "agentteams.gateway.identity.oidc.jwk-set-uri=http://127.0.0.1:1/jwks")
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(EdgeIdentityProperties.Oidc.AUDIENCE));
  }

  @Test
  void anAudienceWithoutIssuerRefusesToStart() {
    gateway
        .withPropertyValues("agentteams.gateway.identity.oidc.audience=agent-teams")
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(EdgeIdentityProperties.Oidc.ISSUER_URI));
  }

  @Test
  void startsWithIssuerAndAudienceAndWithNoProviderAtAll() {
    gateway
        .withPropertyValues(
            "agentteams.gateway.identity.oidc.issuer-uri=https://idp.example.test",
            "agentteams.gateway.identity.oidc.jwk-set-uri=http://127.0.0.1:1/jwks",
            "agentteams.gateway.identity.oidc.audience=agent-teams")
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(EdgeAuthenticator.class));
    gateway.run(context -> assertThat(context).hasNotFailed());
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(EdgeIdentityProperties.class)
  @Import(EdgeAuthenticator.class)
  static class Identity {

    @Bean
    EdgeTokens edgeTokens() {
      return new EdgeTokens(
          TokenKeys.edge(TestIdentity.edgeKeys(), TestIdentity.EDGE_KEYS),
          TestIdentity.jobMemberVerifier(),
          "agent-teams",
          "agent-teams-api",
          TokenRevocations.NONE,
          Clock.systemUTC());
    }
  }
}
