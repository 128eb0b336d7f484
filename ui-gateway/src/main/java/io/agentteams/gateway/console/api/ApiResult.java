package io.agentteams.gateway.console.api;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * One answer of the public API: its status and its JSON body (a Problem Details document on
 * failure).
 *
 * @param status the HTTP status
 * @param body the parsed body, or null when there was none or it was not JSON
 */
public record ApiResult(int status, @Nullable JsonNode body) {

  /** Whether the call succeeded. */
  public boolean ok() {
    return status >= 200 && status < 300;
  }

  /**
   * The status a console page answers with when this call failed: the API's own, or 502 when it
   * never answered with one.
   */
  public HttpStatus problemStatus() {
    return status >= 400 && status < 600 ? HttpStatus.valueOf(status) : HttpStatus.BAD_GATEWAY;
  }

  /** The body of a successful call; a failure as an {@link ApiException}. */
  public JsonNode orThrow() {
    if (!ok() || body == null) {
      throw new ApiException(this);
    }
    return body;
  }

  /** What a person should read when the call failed: the problem's detail, or the status. */
  public String message() {
    if (status == 0) {
      return "The service could not be reached. Try again.";
    }
    String detail = field("detail").orElse(field("title").orElse(null));
    return detail == null ? "The request failed (" + status + ")." : detail;
  }

  /** The problem's stable code, if the body names one. */
  public Optional<String> code() {
    return field("code");
  }

  private Optional<String> field(String name) {
    if (body == null || !body.path(name).isString()) {
      return Optional.empty();
    }
    String value = body.path(name).asString();
    return value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  /** A failed call, carrying its answer. */
  public static final class ApiException extends RuntimeException {

    private final ApiResult result;

    public ApiException(ApiResult result) {
      super(result.message());
      this.result = result;
    }

    public ApiResult result() {
      return result;
    }
  }
}
