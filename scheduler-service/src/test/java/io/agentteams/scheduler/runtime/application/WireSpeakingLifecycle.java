package io.agentteams.scheduler.runtime.application;

import org.springframework.web.reactive.function.client.WebClient;

/** A fixture: lifecycle code that calls an agent itself, the breach the wire rule names. */
class WireSpeakingLifecycle {

  private final WebClient client = WebClient.create();

  WebClient client() {
    return client;
  }
}
