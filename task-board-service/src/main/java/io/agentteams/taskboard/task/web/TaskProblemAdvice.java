package io.agentteams.taskboard.task.web;

import io.agentteams.platform.web.ProblemDetailsAdvice;
import io.agentteams.taskboard.task.domain.TaskProblem;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebExchange;

/**
 * Renders refusals about one task as Problem Details that carry the task as it is now ({@code
 * current}), so a stale writer can decide again without another read.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class TaskProblemAdvice {

  @ExceptionHandler(TaskProblem.class)
  public ResponseEntity<ProblemDetail> taskProblem(
      TaskProblem problem, ServerWebExchange exchange) {
    ProblemDetail body =
        ProblemDetailsAdvice.body(problem, exchange.getRequest().getPath().value());
    body.setProperty("current", TaskView.of(problem.current()));
    return ResponseEntity.status(body.getStatus())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(body);
  }
}
