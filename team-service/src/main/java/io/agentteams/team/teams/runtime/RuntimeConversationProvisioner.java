package io.agentteams.team.teams.runtime;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.application.ConversationProvisioner;
import io.agentteams.team.teams.application.ConversationRejected;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Ensures a conversation through the adapter of the binding's runtime kind. A kind without an
 * adapter in this deployment is refused for good, so the team fails with that reason instead of
 * looking ready while its member cannot be reached.
 */
public final class RuntimeConversationProvisioner implements ConversationProvisioner {

  private final Map<RuntimeKind, RuntimeConversations> adapters = new EnumMap<>(RuntimeKind.class);

  public RuntimeConversationProvisioner(List<RuntimeConversations> adapters) {
    for (RuntimeConversations adapter : adapters) {
      if (this.adapters.put(adapter.kind(), adapter) != null) {
        throw new IllegalStateException("two conversation adapters for " + adapter.kind().wire());
      }
    }
  }

  @Override
  public Mono<ConversationOutcome> ensure(ConversationBinding binding) {
    RuntimeConversations adapter = adapters.get(binding.runtimeKind());
    if (adapter == null) {
      return Mono.error(
          new ConversationRejected(
              "this deployment has no conversation adapter for "
                  + binding.runtimeKind().wire()
                  + " runtimes"));
    }
    return adapter.ensure(binding);
  }
}
