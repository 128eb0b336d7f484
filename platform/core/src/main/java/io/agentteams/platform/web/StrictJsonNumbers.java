package io.agentteams.platform.web;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.type.LogicalType;

/**
 * Numbers in request bodies are JSON numbers of the field's kind: an integral field takes no
 * fraction ({@code 1.5}, and {@code 1.0} too, are refused rather than truncated) and no field takes
 * a number written as a string ({@code "100"}). A refused body is a 400 that names the field
 * ({@link #field}).
 */
public final class StrictJsonNumbers {

  private static final Set<Class<?>> INTEGRAL =
      Set.of(
          int.class,
          long.class,
          short.class,
          byte.class,
          Integer.class,
          Long.class,
          Short.class,
          Byte.class,
          BigInteger.class);

  private static final Set<Class<?>> FRACTIONAL =
      Set.of(double.class, float.class, Double.class, Float.class, BigDecimal.class);

  private StrictJsonNumbers() {}

  /** Applies these rules to the application's JSON mapper (the one that reads request bodies). */
  public static JsonMapperBuilderCustomizer customizer() {
    return builder ->
        builder
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .withCoercionConfig(
                LogicalType.Integer,
                config ->
                    config
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
            .withCoercionConfig(
                LogicalType.Float,
                config -> config.setCoercion(CoercionInputShape.String, CoercionAction.Fail));
  }

  /**
   * The field a body could not be read for, as its JSON path ({@code budget.max_tokens}, {@code
   * tasks[2].priority}), and what it must be; nothing when the failure names no field.
   */
  public static @Nullable Refused field(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof JacksonException json && !json.getPath().isEmpty()) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : json.getPath()) {
          if (reference.getPropertyName() != null) {
            if (!path.isEmpty()) {
              path.append('.');
            }
            path.append(reference.getPropertyName());
          } else if (reference.getIndex() >= 0) {
            path.append('[').append(reference.getIndex()).append(']');
          }
        }
        Class<?> target =
            json instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        String expected =
            target == null
                ? "a value of another type"
                : INTEGRAL.contains(target)
                    ? "an integer (a JSON number without a fraction)"
                    : FRACTIONAL.contains(target) ? "a JSON number" : "a value of another type";
        return path.isEmpty() ? null : new Refused(path.toString(), expected);
      }
    }
    return null;
  }

  /**
   * A field of a body that could not be read.
   *
   * @param field its JSON path
   * @param expected what it must be
   */
  public record Refused(String field, String expected) {}
}
