package io.agentteams.archfixture.team.planning;

import org.springframework.web.util.UriComponentsBuilder;

/**
 * A capability in a package named neither {@code domain} nor {@code application} that builds web
 * addresses itself: breaks the wire rule all the same.
 */
public class WirePlanner {

  public String planAt(String base) {
    return UriComponentsBuilder.fromUriString(base).path("/plans").build().toUriString();
  }
}
