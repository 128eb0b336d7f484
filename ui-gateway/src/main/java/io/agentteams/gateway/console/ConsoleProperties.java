package io.agentteams.gateway.console;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The team console's settings.
 *
 * @param sessionSecret the key that signs console session cookies (at least 32 bytes); shared by
 *     every gateway replica. Without one each process makes a random key, so sessions end when it
 *     restarts and are not valid on another replica.
 * @param sessionTtl how long a sign-in lasts
 * @param operators owner ids that may open the operator page; {@code *} lets every signed-in person
 *     in (the embedded stack's development setting)
 * @param grafanaUrl where the operators' dashboards are, linked from the operator page
 * @param operator where the operator page reads the services' metrics
 * @param oidc the console's client registration at the OpenID Connect provider named by {@code
 *     agentteams.gateway.identity.oidc.issuer-uri}
 * @param limits the limits the services enforce, so forms count against them as people type (the
 *     services remain the authority: a refusal is shown with the draft kept)
 */
@Validated
@ConfigurationProperties("agentteams.gateway.console")
public record ConsoleProperties(
    @Nullable String sessionSecret,
    @DefaultValue("12h") Duration sessionTtl,
    @DefaultValue List<String> operators,
    @Nullable URI grafanaUrl,
    @DefaultValue Operator operator,
    @DefaultValue Oidc oidc,
    @DefaultValue Limits limits) {

  public ConsoleProperties {
    if (sessionSecret != null && sessionSecret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw new IllegalArgumentException(
          "agentteams.gateway.console.session-secret needs at least 32 bytes");
    }
    operators = List.copyOf(operators);
  }

  /** Whether the owner may open the operator page. */
  public boolean isOperator(String ownerId) {
    return operators.contains("*") || operators.contains(ownerId);
  }

  /**
   * Where the operator page reads the services' metrics.
   *
   * @param metricsPath the path of the Prometheus exposition on each service
   * @param metrics a base URL per service ({@code team-service}, ...) where it is not the service's
   *     own address (e.g. a separate management port)
   */
  public record Operator(
      @DefaultValue("/actuator/prometheus") String metricsPath,
      @DefaultValue Map<String, URI> metrics) {}

  /**
   * The console as a client of the OpenID Connect provider.
   *
   * @param clientId its client id; without one, people sign in only with the development identity
   * @param clientSecret its secret, for a confidential client; without one it is a public client
   *     (PKCE protects the code either way)
   * @param scopes the scopes it asks for
   */
  public record Oidc(
      @Nullable String clientId,
      @Nullable String clientSecret,
      @DefaultValue({"openid", "profile"}) List<String> scopes) {}

  /**
   * Limits as the services enforce them by default (DESIGN.md section 3).
   *
   * @param teamNameChars team name, characters (code points)
   * @param teamNameBytes team name, UTF-8 bytes
   * @param goalChars goal, characters
   * @param goalBytes goal, UTF-8 bytes
   * @param minMembers fewest members of a team
   * @param maxMembers most members of a team
   * @param teamsPerOwner most teams one owner keeps
   * @param memberNameChars longest member name
   * @param requestChars a request's text, characters
   * @param requestBytes a request's text, UTF-8 bytes
   * @param answerChars a clarification answer, characters
   * @param answerBytes a clarification answer, UTF-8 bytes
   * @param interruptBytes an interrupt's JSON response, UTF-8 bytes
   * @param agentNameChars agent name, characters
   * @param agentNameBytes agent name, UTF-8 bytes
   * @param agentDescriptionChars agent description, characters
   * @param agentDescriptionBytes agent description, UTF-8 bytes
   * @param stateTitleChars a public state entry's title, characters
   * @param stateTitleBytes a public state entry's title, UTF-8 bytes
   * @param stateContentChars a public state entry's content, characters
   * @param stateContentBytes a public state entry's content, UTF-8 bytes
   */
  public record Limits(
      @DefaultValue("80") int teamNameChars,
      @DefaultValue("160") int teamNameBytes,
      @DefaultValue("2000") int goalChars,
      @DefaultValue("4000") int goalBytes,
      @DefaultValue("2") int minMembers,
      @DefaultValue("8") int maxMembers,
      @DefaultValue("20") int teamsPerOwner,
      @DefaultValue("40") int memberNameChars,
      @DefaultValue("4000") int requestChars,
      @DefaultValue("8000") int requestBytes,
      @DefaultValue("4000") int answerChars,
      @DefaultValue("8000") int answerBytes,
      @DefaultValue("8000") int interruptBytes,
      @DefaultValue("80") int agentNameChars,
      @DefaultValue("160") int agentNameBytes,
      @DefaultValue("2000") int agentDescriptionChars,
      @DefaultValue("4000") int agentDescriptionBytes,
      @DefaultValue("80") int stateTitleChars,
      @DefaultValue("160") int stateTitleBytes,
      @DefaultValue("1000") int stateContentChars,
      @DefaultValue("2000") int stateContentBytes) {}
}
