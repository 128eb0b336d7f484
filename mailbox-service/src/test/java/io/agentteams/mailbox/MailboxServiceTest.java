package io.agentteams.mailbox;

import io.agentteams.mailbox.support.FaultInjection;
import io.agentteams.platform.test.RealInfrastructure;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;

/**
 * mailbox-service running on a random port against the shared Kafka and its own database, with a
 * delivery checkpoint tests can arm. Every test class shares this one context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@RealInfrastructure(database = "mailbox")
@SpringBootTest(
    classes = {MailboxApplication.class, FaultInjection.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.config.name=" + MailboxApplication.CONFIG_NAME)
@AutoConfigureWebTestClient(timeout = "PT30S")
public @interface MailboxServiceTest {}
