package io.agentteams.gateway.tools;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.Fails;
import io.agentteams.platform.web.WebProblems;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** {@code GET /api/v1/tools}: the member tools with their input and result JSON Schemas. */
@RestController
public class ToolsController {

  private final ToolCatalog catalog;

  public ToolsController(ToolCatalog catalog) {
    this.catalog = catalog;
  }

  /** The listing. */
  public record ToolList(List<ToolCatalog.Tool> tools) {}

  /** Any authenticated caller may read what the tools are. */
  @GetMapping("/api/v1/tools")
  public Mono<ToolList> list(Caller caller) {
    return Mono.just(new ToolList(catalog.all()));
  }

  @GetMapping("/api/v1/tools/{name}")
  @Fails(ProblemException.Kind.NOT_FOUND)
  public Mono<ToolCatalog.Tool> tool(Caller caller, @PathVariable String name) {
    return Mono.justOrEmpty(catalog.find(name))
        .switchIfEmpty(Mono.error(WebProblems.notFound("tool", name)));
  }
}
