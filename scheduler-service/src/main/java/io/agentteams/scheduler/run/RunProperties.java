package io.agentteams.scheduler.run;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Team runs' bounds and defaults.
 *
 * @param maxTasks the most tasks a plan may have
 * @param defaultMaxRounds rounds of dispatch when the run does not say
 * @param maxRounds the most rounds a run may ask for
 * @param defaultConcurrency tasks dispatched at once when the run does not say (never above the
 *     admission slots)
 * @param objectiveMaxChars the longest objective
 * @param teamMaxUnfinished unfinished runs a team may have at once
 * @param contextStateMaxBytes the most of the team's public state a task's input carries (its
 *     current entries, most recently changed first, UTF-8 bytes)
 * @param contextMessages the most recent messages a task's input carries
 * @param contextMessagesMaxBytes the most bytes of recent messages a task's input carries
 */
@Validated
@ConfigurationProperties("agentteams.scheduler.runs")
public record RunProperties(
    @DefaultValue("50") int maxTasks,
    @DefaultValue("10") int defaultMaxRounds,
    @DefaultValue("100") int maxRounds,
    @DefaultValue("4") int defaultConcurrency,
    @DefaultValue("4000") int objectiveMaxChars,
    @DefaultValue("5") int teamMaxUnfinished,
    @DefaultValue("8000") int contextStateMaxBytes,
    @DefaultValue("20") int contextMessages,
    @DefaultValue("8000") int contextMessagesMaxBytes) {

  public RunProperties {
    if (maxTasks < 1 || defaultMaxRounds < 1 || maxRounds < defaultMaxRounds) {
      throw new IllegalArgumentException(
          "agentteams.scheduler.runs: need max-tasks >= 1 and 1 <= default-max-rounds <="
              + " max-rounds");
    }
    if (defaultConcurrency < 1 || objectiveMaxChars < 1 || teamMaxUnfinished < 1) {
      throw new IllegalArgumentException(
          "agentteams.scheduler.runs: default-concurrency, objective-max-chars and"
              + " team-max-unfinished must be >= 1");
    }
    if (contextStateMaxBytes < 0 || contextMessages < 0 || contextMessagesMaxBytes < 0) {
      throw new IllegalArgumentException(
          "agentteams.scheduler.runs: context-state-max-bytes, context-messages and"
              + " context-messages-max-bytes must be >= 0");
    }
  }
}
