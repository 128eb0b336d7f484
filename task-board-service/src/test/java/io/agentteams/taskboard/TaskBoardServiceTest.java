package io.agentteams.taskboard;

import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestClock;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;

/**
 * task-board-service on a random port against the shared Kafka and its own database, with a clock
 * tests can move forward ({@link TestClock}) instead of waiting.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@RealInfrastructure(database = "taskboard")
@SpringBootTest(
    classes = {TaskBoardApplication.class, TestClock.Config.class, BoardFixture.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.config.name=" + TaskBoardApplication.CONFIG_NAME)
@AutoConfigureWebTestClient(timeout = "PT30S")
public @interface TaskBoardServiceTest {}
