package io.agentteams.scheduler.run.planning;

import io.agentteams.scheduler.run.domain.WrittenTask;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a planner's answer into tasks, as tolerantly as planners need: a JSON array of tasks or an
 * object holding one ({@code tasks}, {@code plan}, {@code steps}, ...), alone or inside prose or a
 * fenced block, with single quotes, comments or trailing commas, and the common names of each field
 * (task id / id / key, assignee / member / agent / owner, instruction / goal / description, depends
 * on / dependencies / after). Ids and dependencies are passed on as written, for the task board to
 * normalise and check as it does every plan; a numeric dependency naming no task's id names a task
 * by its position.
 *
 * <p>It never invents a member: an assignee is matched to a member ignoring case and a leading
 * {@code @}, and an assignee matching no member is passed on as written so that the board's check
 * refuses it by name.
 */
public final class PlanReader {

  /** What reading produced: tasks, or why none could be read. */
  public sealed interface Reading permits Read, Unreadable {}

  /** Tasks read from the answer, not yet checked as a plan. */
  public record Read(List<WrittenTask> tasks) implements Reading {
    public Read {
      tasks = List.copyOf(tasks);
    }
  }

  /** No plan could be read, and why. */
  public record Unreadable(String why) implements Reading {}

  private static final JsonMapper LENIENT =
      JsonMapper.builder()
          .enable(
              JsonReadFeature.ALLOW_SINGLE_QUOTES,
              JsonReadFeature.ALLOW_JAVA_COMMENTS,
              JsonReadFeature.ALLOW_TRAILING_COMMA,
              JsonReadFeature.ALLOW_UNQUOTED_PROPERTY_NAMES,
              JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
          .build();

  private static final Pattern FENCE =
      Pattern.compile("```[a-zA-Z]*[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);

  private static final List<String> LIST_FIELDS =
      List.of("tasks", "plan", "steps", "subtasks", "items", "assignments", "work");
  private static final List<String> ID_FIELDS =
      List.of("taskid", "id", "key", "ref", "stepid", "step");
  private static final List<String> ASSIGNEE_FIELDS =
      List.of("assignee", "member", "agent", "owner", "assignedto", "worker", "who", "role");
  private static final List<String> INSTRUCTION_FIELDS =
      List.of(
          "instruction",
          "instructions",
          "goal",
          "description",
          "task",
          "prompt",
          "input",
          "details",
          "objective",
          "content");
  private static final List<String> TITLE_FIELDS = List.of("title", "name", "summary", "label");
  private static final List<String> DEPENDENCY_FIELDS =
      List.of(
          "dependencies",
          "dependson",
          "deps",
          "after",
          "requires",
          "needs",
          "blockedby",
          "dependency",
          "prerequisites");

  private static final int MAX_TEXT_CHARS = 4000;
  private static final int MAX_TITLE_CHARS = 120;

  private PlanReader() {}

  /** Reads the answer; {@code members} are the team's member names. */
  public static Reading read(String answer, Collection<String> members) {
    String why = "the answer holds no JSON";
    for (String candidate : candidates(answer)) {
      JsonNode node;
      try {
        node = LENIENT.readTree(candidate);
      } catch (JacksonException e) {
        continue;
      }
      if (node == null || node.isMissingNode()) {
        continue;
      }
      Optional<List<JsonNode>> elements = taskElements(node);
      if (elements.isEmpty() || elements.get().isEmpty()) {
        why = "no list of tasks was found in the answer's JSON";
        continue;
      }
      Reading reading = tasks(elements.get(), members);
      if (reading instanceof Read) {
        return reading;
      }
      why = ((Unreadable) reading).why();
    }
    return new Unreadable(why);
  }

  /** Fenced blocks first, then the whole answer, then every balanced JSON value in the prose. */
  private static List<String> candidates(String answer) {
    List<String> candidates = new ArrayList<>();
    Matcher fences = FENCE.matcher(answer);
    while (fences.find()) {
      candidates.add(fences.group(1).strip());
    }
    candidates.add(answer.strip());
    candidates.addAll(embedded(answer));
    return candidates;
  }

  /** Each outermost {@code [...]} or {@code {...}} whose brackets balance, strings respected. */
  static List<String> embedded(String text) {
    List<String> found = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '[' || c == '{') {
        int end = matching(text, i);
        if (end > i) {
          found.add(text.substring(i, end + 1));
          i = end + 1;
          continue;
        }
      }
      i++;
    }
    return found;
  }

  private static int matching(String text, int start) {
    int depth = 0;
    char quote = 0;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (c == '"') {
        quote = c;
      } else if (c == '[' || c == '{') {
        depth++;
      } else if (c == ']' || c == '}') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return -1;
  }

  private static Optional<List<JsonNode>> taskElements(JsonNode node) {
    if (node.isArray()) {
      List<JsonNode> elements = new ArrayList<>();
      node.forEach(elements::add);
      return Optional.of(elements);
    }
    if (!node.isObject()) {
      return Optional.empty();
    }
    JsonNode list = field(node, LIST_FIELDS);
    if (list != null) {
      if (list.isArray()) {
        return taskElements(list);
      }
      if (list.isObject()) {
        return taskElements(list);
      }
    }
    if (field(node, ASSIGNEE_FIELDS) != null) {
      return Optional.of(List.of(node));
    }
    // An object of tasks keyed by their ids: {"research": {...}, "write": {...}}.
    List<JsonNode> keyed = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      if (entry.getValue().isObject() && field(entry.getValue(), ASSIGNEE_FIELDS) != null) {
        keyed.add(LENIENT.createObjectNode().put("id", entry.getKey()).setAll(asObject(entry)));
      }
    }
    return keyed.isEmpty() ? Optional.empty() : Optional.of(keyed);
  }

  private static tools.jackson.databind.node.ObjectNode asObject(Map.Entry<String, JsonNode> e) {
    return (tools.jackson.databind.node.ObjectNode) e.getValue();
  }

  private static Reading tasks(List<JsonNode> elements, Collection<String> members) {
    Map<String, String> memberByName = new LinkedHashMap<>();
    for (String member : members) {
      memberByName.put(member.toLowerCase(Locale.ROOT), member);
    }
    List<@Nullable String> ids = new ArrayList<>();
    List<JsonNode> objects = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      JsonNode element = elements.get(i);
      if (!element.isObject()) {
        return new Unreadable("task " + (i + 1) + " is not a JSON object");
      }
      objects.add(element);
      String id = text(field(element, ID_FIELDS)).strip();
      ids.add(id.isEmpty() ? null : id);
    }
    List<WrittenTask> tasks = new ArrayList<>();
    for (int i = 0; i < objects.size(); i++) {
      JsonNode element = objects.get(i);
      String name = ids.get(i) == null ? "task " + (i + 1) : "task '" + ids.get(i) + "'";
      String assignee = text(field(element, ASSIGNEE_FIELDS)).strip();
      if (assignee.isEmpty()) {
        return new Unreadable(name + " names no assignee");
      }
      String bare = assignee.startsWith("@") ? assignee.substring(1) : assignee;
      String member = memberByName.getOrDefault(bare.toLowerCase(Locale.ROOT), bare);
      String instruction = cap(text(field(element, INSTRUCTION_FIELDS)).strip(), MAX_TEXT_CHARS);
      String title = cap(text(field(element, TITLE_FIELDS)).strip(), MAX_TITLE_CHARS);
      if (instruction.isEmpty() && title.isEmpty()) {
        return new Unreadable(name + " says nothing to do");
      }
      if (instruction.isEmpty()) {
        instruction = title;
      }
      if (title.isEmpty()) {
        title = cap(instruction, 80);
      }
      List<String> dependencies = new ArrayList<>();
      for (String written : list(field(element, DEPENDENCY_FIELDS))) {
        String dependency = byPosition(written.strip(), ids);
        if (!dependency.isEmpty() && !dependencies.contains(dependency)) {
          dependencies.add(dependency);
        }
      }
      tasks.add(new WrittenTask(ids.get(i), member, title, instruction, dependencies));
    }
    return new Read(tasks);
  }

  /**
   * A dependency as written, or, when it is a number that is no task's id, the id of the task at
   * that position (1 for the first); a task without an id is known by the key the board gives it.
   */
  private static String byPosition(String dependency, List<@Nullable String> ids) {
    if (!dependency.matches("\\d+")
        || ids.stream().anyMatch(id -> id != null && id.equalsIgnoreCase(dependency))) {
      return dependency;
    }
    int position = Integer.parseInt(dependency.length() > 6 ? "0" : dependency);
    if (position < 1 || position > ids.size()) {
      return dependency;
    }
    String id = ids.get(position - 1);
    return id == null ? "task_" + position : id;
  }

  /** The first of the fields present, matched ignoring case, underscores, dashes and spaces. */
  private static @Nullable JsonNode field(JsonNode object, List<String> names) {
    Map<String, JsonNode> bySimpleName = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : object.properties()) {
      bySimpleName.putIfAbsent(simple(entry.getKey()), entry.getValue());
    }
    for (String name : names) {
      JsonNode value = bySimpleName.get(name);
      if (value != null && !value.isNull()) {
        return value;
      }
    }
    return null;
  }

  private static String simple(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[_\\-\\s]", "");
  }

  private static String text(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return "";
    }
    if (node.isValueNode()) {
      return node.asString();
    }
    if (node.isArray()) {
      List<String> parts = new ArrayList<>();
      node.forEach(part -> parts.add(text(part)));
      return String.join("\n", parts);
    }
    JsonNode named = field(node, List.of("name", "id"));
    return named == null ? node.toString() : text(named);
  }

  private static List<String> list(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    List<String> values = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(value -> values.add(text(value)));
    } else {
      for (String part : text(node).split("[,;]")) {
        values.add(part.strip());
      }
    }
    return values;
  }

  private static String cap(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
