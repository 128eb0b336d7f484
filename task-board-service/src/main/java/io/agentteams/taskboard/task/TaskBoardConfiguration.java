package io.agentteams.taskboard.task;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.taskboard.task.application.BoardTransactions;
import io.agentteams.taskboard.task.application.ClaimSweeper;
import io.agentteams.taskboard.task.application.TombstonePurge;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.reactive.TransactionalOperator;

/** Wires the claim sweeper, the tombstone purge and their loops, which every replica runs. */
@Configuration(proxyBeanMethods = false)
public class TaskBoardConfiguration {

  @Bean
  ClaimSweeper claimSweeper(
      TaskStore store,
      TaskEvents events,
      TransactionalOperator transactions,
      BoardTransactions boards,
      TaskBoardProperties properties,
      MeterRegistry meters) {
    return new ClaimSweeper(store, events, transactions, boards, properties, meters);
  }

  @Bean
  TombstonePurge tombstonePurge(
      TaskStore store, TaskBoardProperties properties, Clock clock, MeterRegistry meters) {
    return new TombstonePurge(store, properties, clock, meters);
  }

  /**
   * Purges tombstones older than {@code tombstone-retention} every {@code
   * tombstone-purge-interval}.
   */
  @Bean
  PeriodicLoop tombstonePurgeLoop(
      PeriodicLoops loops, TombstonePurge purge, TaskBoardProperties properties) {
    return loops
        .named("task-tombstone-purge")
        .every(properties.tombstonePurgeInterval())
        .running(purge::purgeOnce);
  }

  /** Recovers expired claims every {@code sweep-interval}. */
  @Bean
  PeriodicLoop claimSweepLoop(
      PeriodicLoops loops, ClaimSweeper sweeper, TaskBoardProperties properties) {
    return loops.named("claim-sweep").every(properties.sweepInterval()).running(sweeper::sweepOnce);
  }
}
