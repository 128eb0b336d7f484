package io.agentteams.archfixture.team.runtime;

import org.springframework.web.reactive.function.client.WebClient;

/** A capability in a newly named package that speaks HTTP itself: breaks the wire rule. */
public class WirePusher {

  private final WebClient client;

  public WirePusher(WebClient client) {
    this.client = client;
  }

  public WebClient client() {
    return client;
  }
}
