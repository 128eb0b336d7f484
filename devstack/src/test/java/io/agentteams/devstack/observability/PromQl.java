package io.agentteams.devstack.observability;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads, each with the {@code service} its selector names (if
 * any): enough to check that a dashboard or an alert reads metrics that exist.
 */
final class PromQl {

  private static final Set<String> KEYWORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "inf",
          "nan",
          // Aggregations, which may be followed by "by (...)" rather than "(".
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile",
          "limitk",
          "limit_ratio");
  private static final Pattern SELECTOR =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{[^}]*\\})?\\s*(\\()?");
  private static final Pattern SERVICE = Pattern.compile("service\\s*=\\s*\"([^\"]+)\"");

  private PromQl() {}

  /** Metric name to the service its selector names (null when it names none). */
  static Map<String, String> metrics(String expression) {
    String text =
        expression
            .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"(?![^{]*})", "\"\"") // strings outside selectors
            .replaceAll("\\[[^\\]]*\\]", "") // ranges and subqueries
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", "$1");
    Map<String, String> metrics = new LinkedHashMap<>();
    Matcher matcher = SELECTOR.matcher(text);
    while (matcher.find()) {
      String name = matcher.group(1);
      boolean function = matcher.group(3) != null && matcher.group(2) == null;
      boolean number = Character.isDigit(name.charAt(0));
      int start = matcher.start();
      boolean insideSelector = text.lastIndexOf('{', start) > text.lastIndexOf('}', start);
      if (function || number || insideSelector || KEYWORDS.contains(name.toLowerCase())) {
        continue;
      }
      String service = null;
      if (matcher.group(2) != null) {
        Matcher named = SERVICE.matcher(matcher.group(2));
        service = named.find() ? named.group(1) : null;
      }
      metrics.merge(name, service == null ? "" : service, (a, b) -> a.isEmpty() ? b : a);
    }
    metrics.replaceAll((name, service) -> service.isEmpty() ? null : service);
    return metrics;
  }

  /** Just the names. */
  static Set<String> names(String expression) {
    return new LinkedHashSet<>(metrics(expression).keySet());
  }
}
