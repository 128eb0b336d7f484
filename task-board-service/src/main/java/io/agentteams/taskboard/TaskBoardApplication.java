package io.agentteams.taskboard;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Runs task-board-service. Its configuration lives in {@code task-board-service.yml}. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TaskBoardApplication {

  /** The name of this service's configuration file (several services may share a classpath). */
  public static final String CONFIG_NAME = "task-board-service";

  public static void main(String[] args) {
    application().run(args);
  }

  /** The application with its configuration name set. */
  public static SpringApplication application() {
    SpringApplication application = new SpringApplication(TaskBoardApplication.class);
    application.setDefaultProperties(Map.of("spring.config.name", CONFIG_NAME));
    return application;
  }
}
