package io.agentteams.gateway.console;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.web.reactive.config.ResourceHandlerRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Serves the console's own scripts, styles and vendored libraries from this origin. Browsers
 * revalidate them (a 304 costs nothing), so a new version is picked up at once.
 */
@Configuration(proxyBeanMethods = false)
public class ConsoleAssets implements WebFluxConfigurer {

  @Override
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    registry
        .addResourceHandler("/console/assets/**")
        .addResourceLocations("classpath:/console/static/")
        .setCacheControl(CacheControl.noCache())
        .setUseLastModified(true);
  }
}
