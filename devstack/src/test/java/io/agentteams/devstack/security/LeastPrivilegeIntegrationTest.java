package io.agentteams.devstack.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentteams.devstack.DevelopmentKeys;
import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.gateway.identity.EdgeTokens;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerClaims;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.InternalAudiences;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.token.TokenRevocations;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Whatever one service holds, it cannot make a token another part accepts as the gateway's: the
 * services hold only the gateway's public keys, and the scheduler's own dispatch key signs tokens
 * the gateway takes only as a member within one job.
 */
class LeastPrivilegeIntegrationTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final List<Service> SERVICES =
      List.of(Service.TEAM, Service.MAILBOX, Service.TASK_BOARD, Service.SCHEDULER);

  private final ServiceStack stack = SharedStack.get();
  private final DevelopmentKeys keys = stack.keys();
  private final HttpClient http = HttpClient.newHttpClient();
  private final Clock clock = Clock.systemUTC();

  @Test
  void tokensMadeFromAServicesMaterialAreRefusedByEveryServiceAndTheGateway() throws Exception {
    Map<String, String> forged = new LinkedHashMap<>();
    ECKey gatewayKey = TokenKeys.internalSigning(keys.internalSigning(), "keys").get(0);
    String publicKeys = TokenKeys.publicSet(List.of(gatewayKey));
    // What every service holds: the gateway's public keys, as HMAC keys, under the gateway's kid.
    forged.put(
        "HS256 keyed with the public key set",
        hmac(publicKeys, gatewayKey.getKeyID(), CallerTokens.TYPE, "agent-teams-gateway"));
    forged.put(
        "HS256 keyed with the public point",
        hmac(
            gatewayKey.toPublicJWK().getX().toString() + gatewayKey.toPublicJWK().getY(),
            gatewayKey.getKeyID(),
            CallerTokens.TYPE,
            "agent-teams-gateway"));
    // What the scheduler alone holds besides: its dispatch key, used as if it were the gateway's.
    List<ECKey> dispatch = TokenKeys.internalSigning(keys.dispatchSigning(), "keys");
    forged.put(
        "internal token signed with the dispatch key",
        CallerTokens.signingForEvery(dispatch, "agent-teams-gateway", InternalAudiences.ALL, clock)
            .issue(new Caller.Owner("mallory"), MINUTE));
    forged.put(
        "dispatch key, the gateway's kid",
        CallerTokens.signingForEvery(
                List.of(new ECKey.Builder(dispatch.get(0)).keyID(gatewayKey.getKeyID()).build()),
                "agent-teams-gateway",
                InternalAudiences.ALL,
                clock)
            .issue(new Caller.Owner("mallory"), MINUTE));

    for (Map.Entry<String, String> token : forged.entrySet()) {
      for (Service service : SERVICES) {
        assertThat(status(stack.url(service) + "/api/v1/teams", token.getValue()))
            .as("%s at %s", token.getKey(), service.id())
            .isEqualTo(401);
      }
      assertThat(status(stack.url(Service.GATEWAY) + "/api/v1/teams", token.getValue()))
          .as("%s at the gateway", token.getKey())
          .isEqualTo(401);
    }

    // The control: the same request with the gateway's own signature, for the service it is sent
    // to, passes every service; signed for another service it is refused.
    for (Service service : SERVICES) {
      String genuine =
          CallerTokens.signing(List.of(gatewayKey), "agent-teams-gateway", service.id(), clock)
              .issue(new Caller.Owner("alice"), MINUTE);
      assertThat(status(stack.url(service) + "/api/v1/teams", genuine))
          .as("the gateway's token at %s", service.id())
          .isNotEqualTo(401);
      for (Service other : SERVICES) {
        if (other != service) {
          assertThat(status(stack.url(other) + "/api/v1/teams", genuine))
              .as("a token for %s at %s", service.id(), other.id())
              .isEqualTo(401);
        }
      }
    }
  }

  @Test
  void theSchedulersDispatchKeyActsOnlyAsAMemberWithinOneJob() throws Exception {
    CallerTokens scheduler =
        CallerTokens.signing(
            TokenKeys.internalSigning(keys.dispatchSigning(), "keys"),
            CallerTokens.JOB_MEMBER_TYPE,
            "agent-teams-scheduler",
            "agent-teams-api",
            clock);
    UUID team = UUID.randomUUID();
    String gateway = stack.url(Service.GATEWAY);
    List<Caller> notAJobMember = new ArrayList<>();
    notAJobMember.add(new Caller.Owner("mallory"));
    notAJobMember.add(new Caller.Worker("mallory", "agent-1"));
    notAJobMember.add(new Caller.Service("scheduler-service"));
    for (Caller caller : notAJobMember) {
      assertThat(status(gateway + "/api/v1/teams", scheduler.issue(caller, MINUTE)))
          .as("the scheduler's key minting %s", caller)
          .isEqualTo(401);
    }
    // A member token without a job: refused too (JobMemberTokens itself never makes one).
    String memberWithoutJob =
        scheduler.issue(new Caller.Member("mallory", team, "writer", null), MINUTE);
    assertThat(status(gateway + "/api/v1/teams/" + team + "/tasks", memberWithoutJob))
        .isEqualTo(401);
    // A job-scoped member token of a job that does not exist is refused at the gateway (401
    // token-job-ended), under a lease or none: the key alone makes no token that acts.
    String jobMember =
        scheduler.issue(new Caller.Member("mallory", team, "writer", UUID.randomUUID(), 1), MINUTE);
    assertThat(status(gateway + "/api/v1/teams/" + team + "/tasks", jobMember)).isEqualTo(401);
    String noLease =
        scheduler.issue(new Caller.Member("mallory", team, "writer", UUID.randomUUID()), MINUTE);
    assertThat(status(gateway + "/api/v1/teams/" + team + "/tasks", noLease)).isEqualTo(401);
    // Job-scoped member tokens are the gateway's to accept: no service takes one directly.
    for (Service service : SERVICES) {
      assertThat(status(stack.url(service) + "/api/v1/teams/" + team + "/tasks", jobMember))
          .as("a dispatch token at %s", service.id())
          .isEqualTo(401);
    }
  }

  @Test
  void edgeTokensAreTheGatewaysAloneAndNeverNameAService() throws Exception {
    String edgeKey = keys.gatewaySettings().get("agentteams.gateway.identity.edge-keys").toString();
    assertThat(
            keys.settingsFor(Service.TEAM).toString()
                + keys.settingsFor(Service.MAILBOX)
                + keys.settingsFor(Service.TASK_BOARD)
                + keys.settingsFor(Service.SCHEDULER))
        .as("no service is given the edge key or the gateway's private key")
        .doesNotContain(edgeKey)
        .doesNotContain(keys.internalSigning());
    EdgeTokens edge =
        new EdgeTokens(
            TokenKeys.edge(edgeKey, "keys"),
            CallerTokens.verifying(
                TokenKeys.internalVerification(
                    TokenKeys.publicSet(TokenKeys.internalSigning(keys.dispatchSigning(), "k")),
                    "k"),
                CallerTokens.JOB_MEMBER_TYPE,
                "agent-teams-scheduler",
                "agent-teams-api",
                clock),
            "agent-teams",
            "agent-teams-api",
            TokenRevocations.NONE,
            clock);
    // A "service" caller is never accepted from a client, even when signed with the edge key.
    JWTClaimsSet claims =
        CallerClaims.write(
                new Caller.Service("scheduler-service"),
                new JWTClaimsSet.Builder()
                    .issuer("agent-teams")
                    .audience("agent-teams-api")
                    .expirationTime(Date.from(Instant.now().plus(MINUTE))))
            .build();
    var key = TokenKeys.edge(edgeKey, "keys").get(0);
    SignedJWT service =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256)
                .keyID(key.getKeyID())
                .type(EdgeTokens.TYPE)
                .build(),
            claims);
    service.sign(new MACSigner(key));
    assertThat(status(stack.url(Service.GATEWAY) + "/api/v1/teams", service.serialize()))
        .isEqualTo(401);
    // The control: an owner token of the same key is accepted.
    assertThat(
            status(
                stack.url(Service.GATEWAY) + "/api/v1/teams",
                edge.issue(new Caller.Owner("alice"), MINUTE)))
        .isEqualTo(200);
  }

  private String hmac(
      String material, String kid, com.nimbusds.jose.JOSEObjectType type, String issuer)
      throws Exception {
    JWTClaimsSet claims =
        CallerClaims.write(
                new Caller.Owner("mallory"),
                new JWTClaimsSet.Builder()
                    .issuer(issuer)
                    .audience(InternalAudiences.ALL)
                    .expirationTime(Date.from(Instant.now().plus(MINUTE))))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).type(type).build(), claims);
    byte[] secret = material.getBytes(StandardCharsets.UTF_8);
    if (secret.length < 32) {
      secret = (material + material + material).getBytes(StandardCharsets.UTF_8);
    }
    jwt.sign(new MACSigner(secret));
    return jwt.serialize();
  }

  private int status(String url, String token) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
