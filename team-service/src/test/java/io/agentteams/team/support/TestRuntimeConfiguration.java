package io.agentteams.team.support;

import io.agentteams.platform.outbound.HostLookup;
import io.agentteams.team.teams.application.ConversationProvisioner;
import java.net.UnknownHostException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Puts the scripted runtime and the crashing checkpoint in front of the production beans, and keeps
 * name lookups off the network.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestRuntimeConfiguration {

  @Bean
  @Primary
  ScriptedRuntime scriptedRuntime(
      @Qualifier("conversationProvisioner") ConversationProvisioner production) {
    return new ScriptedRuntime(production);
  }

  /**
   * Host names resolve to nothing in tests, so registering an agent never asks a DNS server: names
   * are accepted until dispatch, address literals are judged by the outbound guard.
   */
  @Bean
  HostLookup noNameLookups() {
    return host -> {
      throw new UnknownHostException(host + " (tests resolve no names)");
    };
  }

  @Bean
  @Primary
  CrashingCheckpoint crashingCheckpoint() {
    return new CrashingCheckpoint();
  }
}
