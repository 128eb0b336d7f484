package io.agentteams.team.support;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.teams.application.ConversationProvisioner;
import io.agentteams.team.teams.application.ConversationRejected;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * An agent runtime for tests. Webhook agents behave like a runtime that keeps conversations: it
 * creates one per conversation id if missing and leaves an existing one alone, counting every
 * creation so a test sees duplicates. Other kinds go to the production port. Per agent id, a test
 * can make the runtime fail a number of times or refuse for good.
 */
public final class ScriptedRuntime implements ConversationProvisioner {

  private final ConversationProvisioner production;
  private final Map<String, AtomicInteger> creations = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Set<String> present = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
  private final Map<String, String> refusals = new ConcurrentHashMap<>();

  public ScriptedRuntime(ConversationProvisioner production) {
    this.production = production;
  }

  @Override
  public Mono<ConversationOutcome> ensure(ConversationBinding binding) {
    return Mono.defer(
        () -> {
          calls
              .computeIfAbsent(binding.conversationId(), k -> new AtomicInteger())
              .incrementAndGet();
          String refusal = refusals.get(binding.agentId());
          if (refusal != null) {
            return Mono.error(new ConversationRejected(refusal));
          }
          AtomicInteger failures = failuresLeft.get(binding.agentId());
          if (failures != null && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return Mono.error(
                new IllegalStateException("runtime of " + binding.agentId() + " is down"));
          }
          if (binding.runtimeKind() != RuntimeKind.WEBHOOK) {
            return production.ensure(binding);
          }
          if (present.add(binding.conversationId())) {
            creations
                .computeIfAbsent(binding.conversationId(), k -> new AtomicInteger())
                .incrementAndGet();
            return Mono.just(ConversationOutcome.CREATED);
          }
          return Mono.just(ConversationOutcome.EXISTING);
        });
  }

  /** The next {@code times} calls for the agent fail as if its runtime were down. */
  public void failNext(String agentId, int times) {
    failuresLeft.put(agentId, new AtomicInteger(times));
  }

  /** Every call for the agent is refused for good. */
  public void refuse(String agentId, String reason) {
    refusals.put(agentId, reason);
  }

  /** The runtime loses the conversation, as if its operator deleted it. */
  public void lose(String conversationId) {
    present.remove(conversationId);
  }

  /** Whether the runtime holds the conversation. */
  public boolean holds(String conversationId) {
    return present.contains(conversationId);
  }

  /** How often the runtime created the conversation. */
  public int creations(String conversationId) {
    AtomicInteger count = creations.get(conversationId);
    return count == null ? 0 : count.get();
  }

  /** How often the conversation was asked for. */
  public int calls(String conversationId) {
    AtomicInteger count = calls.get(conversationId);
    return count == null ? 0 : count.get();
  }
}
