package io.agentteams.taskboard.plan.domain;

import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.DependencyCycles;
import io.agentteams.taskboard.task.domain.PlannedTask;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns a plan as a planner wrote it into one the board can import: every task gets a unique key
 * made of {@code a-z 0-9 _ -} (lowercased, other characters replaced by {@code _}, runs of {@code
 * _} collapsed, ends trimmed, at most {@value #MAX_KEY_LENGTH} characters); tasks without a usable
 * id get {@code task_<position>}; a repeated id gets {@code _2}, {@code _3}, ...; dependencies are
 * normalised the same way and resolved to keys, and the result must be a DAG.
 *
 * <p>A dependency names the first task whose own id normalises to it (so a duplicate never steals
 * references from the task it copies), or else the task whose final key it is.
 */
public final class PlanNormalizer {

  public static final int MAX_KEY_LENGTH = 64;

  private PlanNormalizer() {}

  /** One task as the planner wrote it. */
  public record Item(
      @Nullable String id,
      @Nullable String title,
      @Nullable String description,
      List<String> dependencies,
      List<String> writeScopes,
      @Nullable String assignee) {
    public Item {
      dependencies = List.copyOf(dependencies);
      writeScopes = List.copyOf(writeScopes);
    }
  }

  /** Why an id was changed. */
  public enum Reason {
    NORMALISED,
    DUPLICATE;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** An id that normalisation changed. */
  public record Rename(String original, String key, Reason reason) {}

  /**
   * The normalised plan.
   *
   * @param tasks in the planner's order, dependencies as keys
   * @param renamed ids that were changed
   * @param generated keys given to tasks that came without a usable id
   */
  public record Result(List<PlannedTask> tasks, List<Rename> renamed, List<String> generated) {}

  /**
   * The key an id normalises to, or null when nothing usable is left.
   *
   * <p>Lowercases, replaces every character outside {@code a-z 0-9 _ -} with {@code _}, collapses
   * runs of {@code _}, trims {@code _} and {@code -} from both ends, and cuts to {@value
   * #MAX_KEY_LENGTH} characters.
   */
  public static @Nullable String normaliseKey(@Nullable String raw) {
    if (raw == null) {
      return null;
    }
    String lower = raw.toLowerCase(Locale.ROOT);
    StringBuilder key = new StringBuilder();
    lower
        .codePoints()
        .forEach(
            cp -> {
              char c = legal(cp) ? (char) cp : '_';
              if (c == '_' && key.length() > 0 && key.charAt(key.length() - 1) == '_') {
                return;
              }
              key.append(c);
            });
    String trimmed = trimEnds(key.toString());
    if (trimmed.length() > MAX_KEY_LENGTH) {
      trimmed = trimEnds(trimmed.substring(0, MAX_KEY_LENGTH));
    }
    return trimmed.isEmpty() ? null : trimmed;
  }

  /** Whether a key is already normal. */
  public static boolean isNormalKey(String key) {
    return key.equals(normaliseKey(key));
  }

  /**
   * Normalises a plan.
   *
   * @throws io.agentteams.platform.problem.DomainFailure when a dependency names no task of the
   *     plan or the dependencies form a cycle (naming it)
   */
  public static Result normalise(List<Item> items) {
    int size = items.size();
    String[] keys = new String[size];
    Set<String> used = new HashSet<>();
    Map<String, Integer> firstWithBase = new HashMap<>();
    List<Rename> renamed = new ArrayList<>();
    List<String> generated = new ArrayList<>();

    for (int i = 0; i < size; i++) {
      String original = items.get(i).id();
      String base = normaliseKey(original);
      if (base == null) {
        continue;
      }
      boolean duplicate = used.contains(base);
      String key = duplicate ? unique(base, used) : base;
      firstWithBase.putIfAbsent(base, i);
      used.add(key);
      keys[i] = key;
      if (!key.equals(original)) {
        renamed.add(
            new Rename(
                String.valueOf(original), key, duplicate ? Reason.DUPLICATE : Reason.NORMALISED));
      }
    }
    for (int i = 0; i < size; i++) {
      if (keys[i] == null) {
        String key = unique("task_" + (i + 1), used);
        used.add(key);
        keys[i] = key;
        generated.add(key);
      }
    }
    Map<String, Integer> byKey = new HashMap<>();
    for (int i = 0; i < size; i++) {
      byKey.put(keys[i], i);
    }

    List<PlannedTask> tasks = new ArrayList<>();
    Map<String, List<String>> graph = new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      Item item = items.get(i);
      List<String> dependencies = new ArrayList<>();
      for (String raw : item.dependencies()) {
        if (raw == null || raw.isBlank()) {
          continue;
        }
        String reference = normaliseKey(raw);
        Integer target = reference == null ? null : firstWithBase.get(reference);
        if (target == null && reference != null) {
          target = byKey.get(reference);
        }
        if (target == null) {
          throw PlanProblems.unknownDependency(keys[i], raw, "which names no task of the plan");
        }
        if (!dependencies.contains(keys[target])) {
          dependencies.add(keys[target]);
        }
      }
      graph.put(keys[i], dependencies);
      tasks.add(
          new PlannedTask(
              keys[i],
              item.title(),
              item.description(),
              dependencies,
              item.writeScopes(),
              item.assignee()));
    }
    DependencyCycles.find(graph)
        .ifPresent(
            cycle -> {
              throw BoardProblems.cycle(cycle);
            });
    return new Result(List.copyOf(tasks), List.copyOf(renamed), List.copyOf(generated));
  }

  private static boolean legal(int cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || cp == '_' || cp == '-';
  }

  private static String trimEnds(String key) {
    int start = 0;
    int end = key.length();
    while (start < end && (key.charAt(start) == '_' || key.charAt(start) == '-')) {
      start++;
    }
    while (end > start && (key.charAt(end - 1) == '_' || key.charAt(end - 1) == '-')) {
      end--;
    }
    return key.substring(start, end);
  }

  /**
   * {@code base} with the first free suffix {@code _2}, {@code _3}, ..., kept within the length.
   */
  private static String unique(String base, Set<String> used) {
    if (!used.contains(base)) {
      return base;
    }
    for (int n = 2; ; n++) {
      String suffix = "_" + n;
      String stem = base;
      if (stem.length() + suffix.length() > MAX_KEY_LENGTH) {
        stem = trimEnds(stem.substring(0, MAX_KEY_LENGTH - suffix.length()));
      }
      String candidate = stem + suffix;
      if (!used.contains(candidate)) {
        return candidate;
      }
    }
  }
}
