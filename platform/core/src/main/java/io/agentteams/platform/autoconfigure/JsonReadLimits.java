package io.agentteams.platform.autoconfigure;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import tools.jackson.core.StreamReadConstraints;

/**
 * Bounds what any JSON parser of the process reads, before a mapper is built: nesting depth, the
 * length of a string, a number and a property name, and the tokens of one document. A hostile body
 * is refused by the parser (400) instead of costing stack or memory. Settings (with defaults):
 * {@code agentteams.json.max-nesting-depth} (64), {@code max-string-length} (1,048,576 chars, the
 * largest body the gateway accepts), {@code max-number-length} (100 digits), {@code
 * max-name-length} (1,000 chars), {@code max-token-count} (1,000,000).
 *
 * <p>Jackson keeps these as process-wide defaults, which every service here shares alike.
 */
public final class JsonReadLimits implements EnvironmentPostProcessor {

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    StreamReadConstraints.overrideDefaultStreamReadConstraints(constraints(environment));
  }

  /** The constraints the environment asks for. */
  static StreamReadConstraints constraints(ConfigurableEnvironment environment) {
    return StreamReadConstraints.builder()
        .maxNestingDepth(
            environment.getProperty("agentteams.json.max-nesting-depth", Integer.class, 64))
        .maxStringLength(
            environment.getProperty("agentteams.json.max-string-length", Integer.class, 1_048_576))
        .maxNumberLength(
            environment.getProperty("agentteams.json.max-number-length", Integer.class, 100))
        .maxNameLength(
            environment.getProperty("agentteams.json.max-name-length", Integer.class, 1_000))
        .maxTokenCount(
            environment.getProperty("agentteams.json.max-token-count", Long.class, 1_000_000L))
        .build();
  }
}
