package io.agentteams.taskboard.task.web;

import io.agentteams.taskboard.task.TaskBoardProperties;
import io.agentteams.taskboard.task.application.TaskListing;
import io.agentteams.taskboard.task.domain.Task;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps a page of tasks within {@code list-max-bytes} of UTF-8 JSON, counted with the API's own
 * mapper (so escaping and multi-byte characters count as they are written). A page holds whole
 * tasks only: one that would not fit ends the page early and starts the next one, and a page always
 * holds at least one task (the largest task the limits allow is far below the smallest budget).
 */
@Component
class TaskPages {

  private final JsonMapper json;
  private final long maxBytes;

  TaskPages(JsonMapper json, TaskBoardProperties properties) {
    this.json = json;
    this.maxBytes = properties.listMaxBytes().toBytes();
  }

  TaskPageView fit(TaskListing listing) {
    List<Task> tasks = listing.tasks();
    if (tasks.isEmpty()) {
      return new TaskPageView(List.of(), null);
    }
    // The envelope with the longest cursor this page could carry (the largest id has most digits).
    long used = size(new TaskPageView(List.of(), listing.cursorAfter(tasks.get(tasks.size() - 1))));
    List<TaskView> items = new ArrayList<>();
    for (Task task : tasks) {
      TaskView view = TaskView.of(task);
      long bytes = size(view) + (items.isEmpty() ? 0 : 1);
      if (!items.isEmpty() && used + bytes > maxBytes) {
        break;
      }
      items.add(view);
      used += bytes;
    }
    boolean more = listing.more() || items.size() < tasks.size();
    return new TaskPageView(items, more ? listing.cursorAfter(tasks.get(items.size() - 1)) : null);
  }

  private long size(Object value) {
    return json.writeValueAsBytes(value).length;
  }
}
