package io.agentteams.platform.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * Settings every service and the gateway share (observability, mainly), from {@value #LOCATION}.
 * They have the lowest precedence, so a service's own file, the environment and the command line
 * override any of them.
 */
public final class PlatformDefaults implements EnvironmentPostProcessor {

  /** Where the shared defaults live on the class path. */
  public static final String LOCATION = "META-INF/agentteams/platform-defaults.properties";

  static final String NAME = "agentteamsPlatformDefaults";

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    if (environment.getPropertySources().contains(NAME)) {
      return;
    }
    try {
      for (PropertySource<?> source :
          new PropertiesPropertySourceLoader().load(NAME, new ClassPathResource(LOCATION))) {
        environment.getPropertySources().addLast(source);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + LOCATION, e);
    }
  }
}
