package io.agentteams.gateway.identity;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The embedded stack's development identity: hands an owner token to whoever asks. Exists only when
 * {@code agentteams.gateway.identity.dev-identity-enabled=true}.
 */
@RestController
@ConditionalOnProperty(
    name = "agentteams.gateway.identity.dev-identity-enabled",
    havingValue = "true")
public class DevTokenController {

  private static final Pattern OWNER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  private final EdgeTokens tokens;
  private final EdgeIdentityProperties properties;

  public DevTokenController(EdgeTokens tokens, EdgeIdentityProperties properties) {
    this.tokens = tokens;
    this.properties = properties;
  }

  @PostMapping("/dev/tokens")
  public TokenResponse issue(@RequestBody DevTokenRequest request) {
    String owner = request.ownerId();
    if (owner == null || !OWNER.matcher(owner).matches()) {
      throw WebProblems.invalid(
          "invalid-owner-id", "owner_id must be 1-64 characters of A-Z a-z 0-9 . _ @ -");
    }
    return new TokenResponse(
        tokens.issue(new Caller.Owner(owner), properties.devTokenTtl()),
        "Bearer",
        properties.devTokenTtl().toSeconds());
  }

  /** Who the development token is for. */
  public record DevTokenRequest(@Nullable String ownerId) {}
}
