package io.agentteams.team.teams;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.team.teams.application.ConversationProvisioner;
import io.agentteams.team.teams.application.ProvisioningCheckpoint;
import io.agentteams.team.teams.application.ProvisioningReconciler;
import io.agentteams.team.teams.application.TeamEventLog;
import io.agentteams.team.teams.application.TeamProvisioning;
import io.agentteams.team.teams.application.TeamTombstones;
import io.agentteams.team.teams.persistence.ProvisioningStore;
import io.agentteams.team.teams.persistence.TeamStore;
import io.agentteams.team.teams.runtime.A2aConversations;
import io.agentteams.team.teams.runtime.PullConversations;
import io.agentteams.team.teams.runtime.RuntimeConversationProvisioner;
import io.agentteams.team.teams.runtime.RuntimeConversations;
import io.agentteams.team.teams.runtime.WebhookConversations;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Wires provisioning (the runtime adapters behind the port, the worker, its reconciler and the
 * reconciler's loop) and the purge of deleted teams.
 */
@Configuration(proxyBeanMethods = false)
public class TeamConfiguration {

  @Bean
  PullConversations pullConversations() {
    return new PullConversations();
  }

  @Bean
  WebhookConversations webhookConversations() {
    return new WebhookConversations();
  }

  @Bean
  A2aConversations a2aConversations() {
    return new A2aConversations();
  }

  @Bean
  ConversationProvisioner conversationProvisioner(List<RuntimeConversations> adapters) {
    return new RuntimeConversationProvisioner(adapters);
  }

  @Bean
  ProvisioningCheckpoint provisioningCheckpoint() {
    return ProvisioningCheckpoint.NONE;
  }

  @Bean
  TeamProvisioning teamProvisioning(
      TeamStore teams,
      ProvisioningStore claims,
      TeamEventLog events,
      ConversationProvisioner provisioner,
      ProvisioningCheckpoint checkpoint,
      TransactionalOperator transactions,
      ProvisioningProperties properties,
      MeterRegistry meters) {
    return new TeamProvisioning(
        teams, claims, events, provisioner, checkpoint, transactions, properties, meters);
  }

  @Bean
  ProvisioningReconciler provisioningReconciler(
      TeamProvisioning provisioning, ProvisioningStore claims, MeterRegistry meters) {
    return new ProvisioningReconciler(provisioning, claims, meters);
  }

  @Bean
  TeamTombstones teamTombstones(
      TeamStore teams, TeamProperties properties, Clock clock, MeterRegistry meters) {
    return new TeamTombstones(teams, properties, clock, meters);
  }

  /** Purges deleted teams older than {@code tombstone-retention} on every replica. */
  @Bean
  PeriodicLoop teamTombstonePurgeLoop(
      PeriodicLoops loops, TeamTombstones tombstones, TeamProperties properties) {
    return loops
        .named("team-tombstone-purge")
        .every(properties.tombstonePurgeInterval())
        .running(tombstones::purgeOnce);
  }

  /**
   * Finishes or fails due provisioning on every replica, at start-up and every {@code
   * reconcile-interval}. A round that outlives ten leases is stuck; its teams' leases run out and
   * they are picked up again.
   */
  @Bean
  PeriodicLoop provisioningReconcileLoop(
      PeriodicLoops loops, ProvisioningReconciler reconciler, ProvisioningProperties properties) {
    return loops
        .named("provisioning-reconcile")
        .every(properties.reconcileInterval())
        .firstAfter(Duration.ZERO)
        .atMost(properties.lease().multipliedBy(10))
        .running(reconciler::reconcileOnce);
  }
}
