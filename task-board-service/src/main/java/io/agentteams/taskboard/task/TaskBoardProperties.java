package io.agentteams.taskboard.task;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.taskboard.task.domain.BoardProblems;
import io.agentteams.taskboard.task.domain.TaskLimits;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The task board's settings and limits ({@code agentteams.taskboard.*}).
 *
 * @param claimTimeout a team's claim time-out unless it chose its own: a claim whose heartbeats
 *     stop for longer is recovered
 * @param minClaimTimeout the shortest claim time-out a team may choose
 * @param maxClaimTimeout the longest claim time-out a team may choose
 * @param sweepInterval how often each replica looks for expired claims
 * @param sweepTeams teams one sweep recovers at most (the next sweep takes the rest)
 * @param claimBatchMax claims of one team written together in one statement at most, when they
 *     arrive while the team's previous claim statement runs
 * @param rosterCacheTtl how long a replica reuses a team's roster before reading it again (0 reads
 *     it on every request)
 * @param maxTasksPerTeam live (not deleted) tasks per team
 * @param maxDependencies dependencies per task
 * @param maxWriteScopes write scopes per task
 * @param planMaxTasks tasks per imported plan
 * @param titleMaxChars task title, characters
 * @param titleMaxBytes task title, UTF-8 bytes
 * @param descriptionMaxChars task description, characters
 * @param descriptionMaxBytes task description, UTF-8 bytes
 * @param resultMaxChars a completed task's result, characters
 * @param resultMaxBytes a completed task's result, UTF-8 bytes
 * @param errorMaxChars a failed task's error, characters
 * @param errorMaxBytes a failed task's error, UTF-8 bytes
 * @param phaseMaxChars a reported phase, characters
 * @param phaseMaxBytes a reported phase, UTF-8 bytes
 * @param writeScopeMaxChars one write scope, characters
 * @param writeScopeMaxBytes one write scope, UTF-8 bytes
 * @param listPageSize tasks in one page of a listing when the client asks for no size
 * @param listMaxPageSize the most tasks a client may ask for in one page
 * @param listMaxBytes the most UTF-8 JSON bytes one page of a listing holds (whole tasks: a page
 *     ends early rather than exceed it, and holds at least one task); the default keeps a page
 *     within the 256 KB a reactive HTTP client buffers by default (the gateway's MCP adapter too)
 * @param tombstoneRetention how long a deleted task's tombstone is kept before it is purged: longer
 *     than the task events topic keeps the events that name the task (7 days, plus a segment's 7
 *     days before the broker deletes it), so whoever reads such an event can still read the task
 * @param tombstonePurgeInterval how often each replica purges expired tombstones
 * @param tombstonePurgeBatch tombstones purged in one statement at most
 */
@Validated
@ConfigurationProperties("agentteams.taskboard")
public record TaskBoardProperties(
    @DefaultValue("5m") Duration claimTimeout,
    @DefaultValue("10s") Duration minClaimTimeout,
    @DefaultValue("24h") Duration maxClaimTimeout,
    @DefaultValue("5s") Duration sweepInterval,
    @DefaultValue("50") int sweepTeams,
    @DefaultValue("64") int claimBatchMax,
    @DefaultValue("1s") Duration rosterCacheTtl,
    @DefaultValue("1000") int maxTasksPerTeam,
    @DefaultValue("50") int maxDependencies,
    @DefaultValue("20") int maxWriteScopes,
    @DefaultValue("100") int planMaxTasks,
    @DefaultValue("200") int titleMaxChars,
    @DefaultValue("400") int titleMaxBytes,
    @DefaultValue("4000") int descriptionMaxChars,
    @DefaultValue("8000") int descriptionMaxBytes,
    @DefaultValue("6000") int resultMaxChars,
    @DefaultValue("12000") int resultMaxBytes,
    @DefaultValue("2000") int errorMaxChars,
    @DefaultValue("4000") int errorMaxBytes,
    @DefaultValue("80") int phaseMaxChars,
    @DefaultValue("160") int phaseMaxBytes,
    @DefaultValue("256") int writeScopeMaxChars,
    @DefaultValue("512") int writeScopeMaxBytes,
    @DefaultValue("100") int listPageSize,
    @DefaultValue("500") int listMaxPageSize,
    @DefaultValue("256KB") DataSize listMaxBytes,
    @DefaultValue("30d") Duration tombstoneRetention,
    @DefaultValue("1h") Duration tombstonePurgeInterval,
    @DefaultValue("1000") int tombstonePurgeBatch) {

  public TaskBoardProperties {
    if (claimTimeout.compareTo(minClaimTimeout) < 0
        || claimTimeout.compareTo(maxClaimTimeout) > 0) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.claim-timeout must lie between min-claim-timeout and"
              + " max-claim-timeout");
    }
    if (claimBatchMax < 1) {
      throw new IllegalArgumentException("agentteams.taskboard.claim-batch-max must be positive");
    }
    if (sweepInterval.isNegative() || sweepInterval.isZero() || sweepTeams < 1) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.sweep-interval and sweep-teams must be positive");
    }
    if (planMaxTasks < 1 || planMaxTasks > maxTasksPerTeam) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.plan-max-tasks must be 1..max-tasks-per-team");
    }
    if (tombstoneRetention.compareTo(Duration.ofDays(15)) < 0) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.tombstone-retention must be at least 15d: longer than the task"
              + " events naming a task can still be delivered");
    }
    if (tombstonePurgeInterval.isNegative()
        || tombstonePurgeInterval.isZero()
        || tombstonePurgeBatch < 1) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.tombstone-purge-interval and tombstone-purge-batch must be positive");
    }
    if (listPageSize < 1 || listMaxPageSize < listPageSize) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.list-page-size must be 1..list-max-page-size");
    }
    if (listMaxBytes.toBytes() < 128 * 1024) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.list-max-bytes must be at least 128KB, room for the largest task");
    }
    if (maxTasksPerTeam < 1 || maxDependencies < 0 || maxWriteScopes < 0) {
      throw new IllegalArgumentException(
          "agentteams.taskboard.max-tasks-per-team must be positive, max-dependencies and"
              + " max-write-scopes not negative");
    }
  }

  /**
   * The size of one page of a listing.
   *
   * @param requested what the client asked for; null for the default
   * @throws io.agentteams.platform.problem.DomainFailure 400 {@code invalid-limit} outside 1 to
   *     {@code list-max-page-size}
   */
  public int listPageSize(@Nullable Integer requested) {
    if (requested == null) {
      return listPageSize;
    }
    if (requested < 1 || requested > listMaxPageSize) {
      throw BoardProblems.invalidLimit(listMaxPageSize, requested);
    }
    return requested;
  }

  /** The limits as the domain sees them; invalid combinations fail at start-up. */
  public TaskLimits limits() {
    return new TaskLimits(
        new TextBound("task.title", titleMaxChars, titleMaxBytes),
        new TextBound("task.description", descriptionMaxChars, descriptionMaxBytes),
        new TextBound("task.result", resultMaxChars, resultMaxBytes),
        new TextBound("task.error", errorMaxChars, errorMaxBytes),
        new TextBound("task.phase", phaseMaxChars, phaseMaxBytes),
        new TextBound("task.write-scope", writeScopeMaxChars, writeScopeMaxBytes),
        maxTasksPerTeam,
        maxDependencies,
        maxWriteScopes,
        minClaimTimeout,
        maxClaimTimeout);
  }
}
