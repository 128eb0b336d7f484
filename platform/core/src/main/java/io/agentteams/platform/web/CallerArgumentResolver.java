package io.agentteams.platform.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import java.util.Locale;
import org.springframework.core.MethodParameter;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Hands the verified {@link Caller} to controller methods. A parameter typed as one kind of caller
 * (say {@code Caller.Owner}) refuses the others with 403.
 */
public final class CallerArgumentResolver implements HandlerMethodArgumentResolver {

  @Override
  public boolean supportsParameter(MethodParameter parameter) {
    return Caller.class.isAssignableFrom(parameter.getParameterType());
  }

  @Override
  public Mono<Object> resolveArgument(
      MethodParameter parameter, BindingContext bindingContext, ServerWebExchange exchange) {
    Object caller = exchange.getAttribute(CallerWebFilter.CALLER_ATTRIBUTE);
    if (caller == null) {
      return Mono.error(
          new ProblemException(
              ProblemException.Kind.UNAUTHENTICATED, "unauthenticated", "not authenticated"));
    }
    if (!parameter.getParameterType().isInstance(caller)) {
      return Mono.error(
          new ProblemException(
              ProblemException.Kind.FORBIDDEN,
              "wrong-caller-kind",
              "this operation is not open to a "
                  + caller.getClass().getSimpleName().toLowerCase(Locale.ROOT)));
    }
    return Mono.just(caller);
  }
}
