package io.agentteams.archfixture.team.client;

import org.springframework.web.reactive.function.client.WebClient;

/** The same HTTP talk in an adapter package: keeps the wire rule. */
public class WireClient {

  private final WebClient client;

  public WireClient(WebClient client) {
    this.client = client;
  }

  public WebClient client() {
    return client;
  }
}
