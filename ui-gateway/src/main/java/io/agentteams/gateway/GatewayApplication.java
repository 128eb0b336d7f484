package io.agentteams.gateway;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Runs the ui-gateway. Its configuration lives in {@code ui-gateway.yml}. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class GatewayApplication {

  /** The name of this service's configuration file (several services may share a classpath). */
  public static final String CONFIG_NAME = "ui-gateway";

  public static void main(String[] args) {
    application().run(args);
  }

  /** The application with its configuration name set. */
  public static SpringApplication application() {
    SpringApplication application = new SpringApplication(GatewayApplication.class);
    application.setDefaultProperties(Map.of("spring.config.name", CONFIG_NAME));
    return application;
  }
}
