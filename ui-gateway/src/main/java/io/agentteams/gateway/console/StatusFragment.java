package io.agentteams.gateway.console;

import io.agentteams.gateway.console.api.ApiResult;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.ui.Model;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The status line an action answers with: what was done, or why it was not. */
public final class StatusFragment {

  private StatusFragment() {}

  /** The status line with this HTTP status and either a message or an error. */
  public static Mono<String> of(
      ServerWebExchange exchange,
      Model model,
      HttpStatus status,
      @Nullable String message,
      @Nullable String error) {
    exchange.getResponse().setStatusCode(status);
    model.addAttribute("message", message);
    model.addAttribute("error", error);
    return Mono.just("fragments/status :: status");
  }

  /** A form the console itself refuses (422), saying what to fix. */
  public static Mono<String> refused(ServerWebExchange exchange, Model model, String error) {
    return of(exchange, model, HttpStatus.UNPROCESSABLE_CONTENT, null, error);
  }

  /** An API call's outcome: its message when it went through, else the call's problem. */
  public static Mono<String> outcome(
      ServerWebExchange exchange, Model model, ApiResult result, String message) {
    return result.ok()
        ? of(exchange, model, HttpStatus.OK, message, null)
        : of(exchange, model, result.problemStatus(), null, result.message());
  }
}
