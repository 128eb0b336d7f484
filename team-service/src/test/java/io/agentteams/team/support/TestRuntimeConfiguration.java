package io.agentteams.team.support;

import io.agentteams.team.teams.application.ConversationProvisioner;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Puts the scripted runtime and the crashing checkpoint in front of the production beans. */
@TestConfiguration(proxyBeanMethods = false)
public class TestRuntimeConfiguration {

  @Bean
  @Primary
  ScriptedRuntime scriptedRuntime(
      @Qualifier("conversationProvisioner") ConversationProvisioner production) {
    return new ScriptedRuntime(production);
  }

  @Bean
  @Primary
  CrashingCheckpoint crashingCheckpoint() {
    return new CrashingCheckpoint();
  }
}
