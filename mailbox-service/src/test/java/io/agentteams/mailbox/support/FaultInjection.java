package io.agentteams.mailbox.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** Test-only beans: a delivery checkpoint that can kill the delivery consumer once. */
@TestConfiguration(proxyBeanMethods = false)
public class FaultInjection {

  @Bean
  KillSwitch deliveryKillSwitch() {
    return new KillSwitch();
  }
}
