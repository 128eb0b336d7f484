package io.agentteams.platform.problem;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A refused request: a stable code, a sentence for people and the facts a program needs. */
public abstract class Refusal extends RuntimeException {

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
