package io.agentteams.sdk.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A path with its segments encoded and a query of the parameters that have a value. */
public final class ApiPath {

  private final String path;
  private final List<String> query = new ArrayList<>();

  private ApiPath(String path) {
    this.path = path;
  }

  /**
   * The template with each {@code {}} replaced by the next value, encoded as one path segment.
   *
   * @param template e.g. {@code /api/v1/teams/{}/tasks/{}}
   * @param values one per placeholder
   */
  public static ApiPath of(String template, Object... values) {
    StringBuilder built = new StringBuilder();
    int from = 0;
    for (Object value : values) {
      int at = template.indexOf("{}", from);
      if (at < 0) {
        throw new IllegalArgumentException("more values than placeholders in " + template);
      }
      built.append(template, from, at).append(encode(Objects.requireNonNull(value).toString()));
      from = at + 2;
    }
    if (template.indexOf("{}", from) >= 0) {
      throw new IllegalArgumentException("a placeholder has no value in " + template);
    }
    built.append(template.substring(from));
    return new ApiPath(built.toString());
  }

  /** Adds a query parameter unless its value is null. */
  public ApiPath query(String name, @Nullable Object value) {
    if (value != null) {
      query.add(encode(name) + "=" + encode(value.toString()));
    }
    return this;
  }

  @Override
  public String toString() {
    return query.isEmpty() ? path : path + "?" + String.join("&", query);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
