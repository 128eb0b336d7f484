package io.agentteams.gateway.console;

import io.agentteams.gateway.console.view.Format;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.ISpringWebFluxTemplateEngine;

/**
 * Renders a template of the console to a string outside a request's view rendering: the fragments
 * that live updates carry, and fragments whose ETag a poll compares. Templates escape every value
 * they print, so untrusted text arrives in the browser as text.
 */
@Component
public class Fragments {

  private final ISpringWebFluxTemplateEngine templates;
  private final ConsoleProperties properties;

  public Fragments(ISpringWebFluxTemplateEngine templates, ConsoleProperties properties) {
    this.templates = templates;
    this.properties = properties;
  }

  /** The template rendered with these variables. */
  public String render(String template, Map<String, ?> variables) {
    Context context = new Context(Locale.ENGLISH);
    context.setVariable("fmt", Format.INSTANCE);
    context.setVariable("limits", properties.limits());
    variables.forEach(context::setVariable);
    return templates.process(template, context);
  }
}
