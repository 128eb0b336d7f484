package io.agentteams.platform.testidentity;

import io.agentteams.platform.identity.CallerTokens;
import java.time.Clock;
import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * TEST ONLY: gives every Spring test context this JVM's keys, at the lowest precedence so a test
 * may still replace or blank them, and a {@link CallerTokens} that signs internal tokens as the
 * gateway would, for tests that call a service directly.
 */
public final class TestIdentityContextCustomizerFactory implements ContextCustomizerFactory {

  /** The bean name of the tests' internal token signer. */
  public static final String SIGNER_BEAN = "testInternalCallerTokens";

  @Override
  public ContextCustomizer createContextCustomizer(
      Class<?> testClass, List<ContextConfigurationAttributes> configurationAttributes) {
    return new Customizer();
  }

  private record Customizer() implements ContextCustomizer {

    @Override
    public void customizeContext(
        ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
      context
          .getEnvironment()
          .getPropertySources()
          .addLast(
              new MapPropertySource("testIdentity (TEST ONLY keys)", TestIdentity.allProperties()));
      if (context instanceof GenericApplicationContext generic) {
        // Signed on the context's own clock where it has one: a test that moves the service's
        // clock must not see the tokens it hands out expire.
        generic.registerBean(
            SIGNER_BEAN,
            CallerTokens.class,
            () ->
                TestIdentity.internalTokens(
                    generic.getBeanProvider(Clock.class).getIfUnique(Clock::systemUTC)));
      } else {
        context.getBeanFactory().registerSingleton(SIGNER_BEAN, TestIdentity.internalTokens());
      }
    }
  }
}
