package io.agentteams.team;

import io.agentteams.platform.test.RealInfrastructure;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;

/** team-service running on a random port against the shared Kafka and its own database. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@RealInfrastructure(database = "team")
@SpringBootTest(
    classes = TeamApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.config.name=" + TeamApplication.CONFIG_NAME)
@AutoConfigureWebTestClient
public @interface TeamServiceTest {}
