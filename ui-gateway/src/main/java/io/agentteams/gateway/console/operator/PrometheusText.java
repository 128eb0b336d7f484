package io.agentteams.gateway.console.operator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** Samples read from a Prometheus text exposition (the format every service's actuator serves). */
public record PrometheusText(List<Sample> samples) {

  /** One sample: its metric name, its labels and its value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  /** Parses an exposition; comment lines and lines it cannot read are skipped. */
  public static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      try {
        samples.add(sample(line.strip()));
      } catch (RuntimeException e) {
        // Not a sample this page needs to understand.
      }
    }
    return new PrometheusText(List.copyOf(samples));
  }

  private static Sample sample(String line) {
    int brace = line.indexOf('{');
    int space = line.lastIndexOf(' ');
    String name;
    Map<String, String> labels = new LinkedHashMap<>();
    if (brace >= 0 && brace < space) {
      name = line.substring(0, brace);
      int close = line.lastIndexOf('}');
      parseLabels(line.substring(brace + 1, close), labels);
      space = line.indexOf(' ', close);
    } else {
      name = line.substring(0, line.indexOf(' '));
      space = line.indexOf(' ');
    }
    String[] rest = line.substring(space + 1).strip().split(" ");
    return new Sample(name, labels, Double.parseDouble(rest[0]));
  }

  private static void parseLabels(String text, Map<String, String> labels) {
    int i = 0;
    while (i < text.length()) {
      int eq = text.indexOf('=', i);
      if (eq < 0) {
        return;
      }
      String key = text.substring(i, eq).strip();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      while (j < text.length() && text.charAt(j) != '"') {
        char c = text.charAt(j);
        if (c == '\\' && j + 1 < text.length()) {
          char next = text.charAt(++j);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(c);
        }
        j++;
      }
      labels.put(key, value.toString());
      i = text.indexOf(',', j);
      if (i < 0) {
        return;
      }
      i++;
    }
  }

  /** The value of the first sample of a metric, if there is one. */
  public OptionalDouble value(String name) {
    return samples.stream()
        .filter(s -> s.name().equals(name))
        .mapToDouble(Sample::value)
        .findFirst();
  }

  /** Every sample of a metric. */
  public List<Sample> all(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }
}
