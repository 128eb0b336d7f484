package io.agentteams.taskboard.task.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * A normalised path prefix a task intends to write: {@code /} followed by segments joined with
 * {@code /}; {@code /} alone is the whole workspace. Scopes are advice for people and agents, never
 * locks: overlaps produce warnings only.
 */
public record WriteScope(String path) implements Comparable<WriteScope> {

  public WriteScope {
    if (!path.startsWith("/") || (path.length() > 1 && path.endsWith("/"))) {
      throw new IllegalArgumentException("not a normalised write scope: " + path);
    }
  }

  /**
   * Normalises a path as a client wrote it: backslashes become slashes, empty and {@code .}
   * segments disappear, a leading slash is implied.
   *
   * @throws io.agentteams.platform.problem.DomainFailure when the path is blank, climbs with {@code
   *     ..} or holds control characters
   */
  public static WriteScope normalise(String raw) {
    String trimmed = raw.strip();
    if (trimmed.isEmpty()) {
      throw BoardProblems.invalidWriteScope(raw, "is blank");
    }
    List<String> segments = new ArrayList<>();
    for (String segment : trimmed.replace('\\', '/').split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        throw BoardProblems.invalidWriteScope(raw, "climbs out with '..'");
      }
      if (segment.chars().anyMatch(Character::isISOControl)) {
        throw BoardProblems.invalidWriteScope(raw, "holds a control character");
      }
      segments.add(segment);
    }
    return new WriteScope("/" + String.join("/", segments));
  }

  /** The path's segments; none for the whole workspace. */
  public List<String> segments() {
    return path.length() == 1 ? List.of() : List.of(path.substring(1).split("/"));
  }

  /** Whether this scope contains {@code other}: its segments start with all of this one's. */
  public boolean contains(WriteScope other) {
    if (path.length() == 1) {
      return true;
    }
    return other.path.equals(path) || other.path.startsWith(path + "/");
  }

  /** Whether a write within one scope can touch a path within the other. */
  public boolean overlaps(WriteScope other) {
    return contains(other) || other.contains(this);
  }

  @Override
  public int compareTo(WriteScope other) {
    return path.compareTo(other.path);
  }

  @Override
  public String toString() {
    return path;
  }
}
