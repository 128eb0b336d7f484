package io.agentteams.platform.test;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks that no meter of a registry is labelled with an unbounded id: no tag key naming an owner,
 * team, agent, job, member, task, message or principal (with or without {@code _id}), and no tag
 * value that holds a UUID (a Kafka client's own {@code client.id} aside). A service's integration
 * test calls {@link #assertBounded} after it has sent some traffic, so that a meter registered with
 * such a label on any path it took fails the test.
 */
public final class MeterLabels {

  /** Tag keys that name something there is one of per tenant or per request. */
  public static final Set<String> ID_KEYS =
      Set.of(
          "owner",
          "team",
          "agent",
          "job",
          "member",
          "task",
          "message",
          "principal",
          "user",
          "subject",
          "worker",
          "offer",
          "lease",
          "run");

  private static final Set<String> CLIENT_KEYS = Set.of("client_id", "spring_id");

  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private MeterLabels() {}

  /**
   * Fails if any meter has an id tag.
   *
   * @throws AssertionError naming every meter and tag found
   */
  public static void assertBounded(MeterRegistry registry) {
    List<String> found = unbounded(registry);
    if (!found.isEmpty()) {
      throw new AssertionError("Meters labelled with unbounded ids: " + found);
    }
  }

  /** The meters with an id tag, as {@code name{key=value}}, empty when there are none. */
  public static List<String> unbounded(MeterRegistry registry) {
    List<String> found = new ArrayList<>();
    for (Meter meter : registry.getMeters()) {
      for (Tag tag : meter.getId().getTags()) {
        if (isId(tag)) {
          found.add(meter.getId().getName() + "{" + tag.getKey() + "=" + tag.getValue() + "}");
        }
      }
    }
    return found;
  }

  private static boolean isId(Tag tag) {
    String key = tag.getKey().toLowerCase(Locale.ROOT).replace('-', '_').replace('.', '_');
    String base = key.endsWith("_id") ? key.substring(0, key.length() - 3) : key;
    if (ID_KEYS.contains(base)) {
      return true;
    }
    // A Kafka client's own id is one per client, not per tenant, whatever it is made of.
    return !CLIENT_KEYS.contains(key)
        && UUID.matcher(tag.getValue().toLowerCase(Locale.ROOT)).find();
  }
}
