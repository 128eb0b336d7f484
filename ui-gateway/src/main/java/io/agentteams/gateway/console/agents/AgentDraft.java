package io.agentteams.gateway.console.agents;

import io.agentteams.gateway.console.view.Agent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.util.MultiValueMap;

/**
 * An agent as the register or edit form holds it, exactly as typed.
 *
 * @param id the agent's id (only when registering)
 * @param name its display name
 * @param description what it does (the catalog search reads it)
 * @param runtimeKind {@code pull}, {@code webhook} or {@code a2a}
 * @param endpoint where a webhook or A2A agent is reached
 */
public record AgentDraft(
    String id, String name, String description, String runtimeKind, String endpoint) {

  public static AgentDraft empty() {
    return new AgentDraft("", "", "", "pull", "");
  }

  public static AgentDraft of(Agent agent) {
    return new AgentDraft(
        agent.id(),
        agent.name(),
        agent.description(),
        agent.runtime().kind(),
        agent.runtime().endpoint() == null ? "" : agent.runtime().endpoint());
  }

  public static AgentDraft of(MultiValueMap<String, String> form) {
    return new AgentDraft(
        value(form, "id").strip(),
        value(form, "name"),
        value(form, "description"),
        value(form, "runtime_kind").isBlank() ? "pull" : value(form, "runtime_kind"),
        value(form, "endpoint").strip());
  }

  /** The API's request body; the id only when registering. */
  public Map<String, Object> request(boolean register) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (register) {
      body.put("id", id);
    }
    body.put("name", name);
    body.put("description", description);
    Map<String, Object> runtime = new LinkedHashMap<>();
    runtime.put("kind", runtimeKind);
    if (!endpoint.isBlank()) {
      runtime.put("endpoint", endpoint);
    }
    body.put("runtime", runtime);
    return body;
  }

  private static String value(MultiValueMap<String, String> form, String name) {
    String value = form.getFirst(name);
    return value == null ? "" : value;
  }
}
