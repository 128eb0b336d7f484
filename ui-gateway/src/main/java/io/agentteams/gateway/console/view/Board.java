package io.agentteams.gateway.console.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The task board: tasks by status in the order work moves, each with its write-scope overlaps, and
 * the imported plans whose tasks wait for the owner's approval.
 */
public record Board(
    List<Column> columns, Map<Long, List<ScopeOverlaps.Overlap>> overlaps, List<Plan> plans) {

  /** The statuses, in the order work moves through them. */
  public static final List<String> STATUSES =
      List.of(
          "awaiting_approval",
          "blocked",
          "pending",
          "ready",
          "in_progress",
          "completed",
          "failed",
          "cancelled");

  /** One status and its tasks, by id. */
  public record Column(String status, String label, List<Task> tasks) {}

  /** A plan held for approval and its tasks. */
  public record Plan(UUID id, List<Task> tasks) {}

  public static Board of(List<Task> tasks) {
    Map<String, List<Task>> byStatus = new LinkedHashMap<>();
    STATUSES.forEach(status -> byStatus.put(status, new ArrayList<>()));
    Map<UUID, List<Task>> held = new LinkedHashMap<>();
    tasks.stream()
        .filter(task -> !task.deleted())
        .sorted(Comparator.comparingLong(Task::id))
        .forEach(
            task -> {
              byStatus.computeIfAbsent(task.status(), s -> new ArrayList<>()).add(task);
              if ("awaiting_approval".equals(task.status()) && task.planId() != null) {
                held.computeIfAbsent(task.planId(), id -> new ArrayList<>()).add(task);
              }
            });
    List<Column> columns = new ArrayList<>();
    byStatus.forEach((status, list) -> columns.add(new Column(status, label(status), list)));
    List<Plan> plans = new ArrayList<>();
    held.forEach((id, list) -> plans.add(new Plan(id, list)));
    return new Board(columns, ScopeOverlaps.of(tasks), plans);
  }

  /** The overlaps of one task (none when it has none). */
  public List<ScopeOverlaps.Overlap> overlapsOf(long taskId) {
    return overlaps.getOrDefault(taskId, List.of());
  }

  /** A version of a task's card: changes when the task or its warnings do. */
  public String version(Task task) {
    return task.revision() + ":" + task.status() + ":" + overlapsOf(task.id()).hashCode();
  }

  /** The number of tasks on the board. */
  public int size() {
    return columns.stream().mapToInt(column -> column.tasks().size()).sum();
  }

  static String label(String status) {
    return switch (status) {
      case "awaiting_approval" -> "Awaiting approval";
      case "in_progress" -> "In progress";
      default -> Character.toUpperCase(status.charAt(0)) + status.substring(1);
    };
  }
}
