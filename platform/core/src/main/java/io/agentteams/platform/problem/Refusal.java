package io.agentteams.platform.problem;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** A refused request: a stable code, a sentence for people and the facts a program needs. */
public abstract class Refusal extends RuntimeException {

  /** The members every Problem Details answer has (RFC 9457) and {@code code}. */
  private static final Set<String> RESERVED =
      Set.of("type", "title", "status", "detail", "instance", "code");

  private final String code;
  private final Map<String, @Nullable Object> parameters;

  /**
   * @param code a stable kebab-case name, e.g. {@code too-few-members}
   * @param detail a sentence for people
   * @param parameters facts for programs, e.g. the limit and the actual value
   */
  protected Refusal(
      String code, String detail, Map<String, ? extends @Nullable Object> parameters) {
    super(detail);
    for (String name : parameters.keySet()) {
      if (RESERVED.contains(name)) {
        // The answer's members of these names say what the answer is; a fact must not replace one.
        throw new IllegalArgumentException(
            "a refusal's parameter cannot be named " + name + " (a Problem Details member)");
      }
    }
    this.code = code;
    this.parameters = new LinkedHashMap<>(parameters);
  }

  public String code() {
    return code;
  }

  public String detail() {
    return getMessage();
  }

  /** The parameters in the order they were given. */
  public Map<String, @Nullable Object> parameters() {
    return Collections.unmodifiableMap(parameters);
  }
}
