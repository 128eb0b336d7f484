package io.agentteams.platform.test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Points Spring tests annotated with {@link RealInfrastructure} at the shared Kafka and at their
 * database. Tests naming the same database share one cached application context.
 */
public final class InfrastructureContextCustomizerFactory implements ContextCustomizerFactory {

  @Override
  public @Nullable ContextCustomizer createContextCustomizer(
      Class<?> testClass, List<ContextConfigurationAttributes> configurationAttributes) {
    RealInfrastructure annotation =
        TestContextAnnotationUtils.findMergedAnnotation(testClass, RealInfrastructure.class);
    return annotation == null ? null : new Customizer(annotation.database());
  }

  private record Customizer(String database) implements ContextCustomizer {

    @Override
    public void customizeContext(
        ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
      TestInfrastructure infrastructure = TestInfrastructure.shared();
      Map<String, Object> properties = new LinkedHashMap<>();
      properties.put("spring.kafka.bootstrap-servers", infrastructure.kafkaBootstrapServers());
      if (!database.isEmpty()) {
        Database db = infrastructure.database(database);
        properties.put("spring.r2dbc.url", db.r2dbcUrl());
        properties.put("spring.r2dbc.username", db.username());
        properties.put("spring.r2dbc.password", db.password());
        properties.put("spring.flyway.url", db.jdbcUrl());
        properties.put("spring.flyway.user", db.username());
        properties.put("spring.flyway.password", db.password());
      }
      context
          .getEnvironment()
          .getPropertySources()
          .addFirst(new MapPropertySource("realInfrastructure", properties));
    }
  }
}
