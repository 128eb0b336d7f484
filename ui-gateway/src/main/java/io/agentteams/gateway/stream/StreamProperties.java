package io.agentteams.gateway.stream;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * How team event streams are served.
 *
 * @param windowPerTeam events kept per team for replay after a reconnect
 * @param maxTeams teams whose windows are kept (least recently used beyond that are dropped)
 * @param subscriberBuffer events buffered for one slow subscriber before it is disconnected
 * @param heartbeat the interval of keep-alive comments on idle streams
 * @param windowBytesPerTeam the most one team's window keeps (its events' JSON, UTF-8); the oldest
 *     events go first, and a subscriber resuming from before them gets a reset
 * @param windowBytesTotal the most every team's window keeps together; beyond it the least recently
 *     used teams' windows are dropped whole. The default, with the events' object overhead, stays
 *     well within the heap of the chart's 768 MiB gateway (75% of it)
 * @param replayMaxBytes the most a resume older than its team's window reads from the broker to
 *     find the events it missed (every record of the team's partitions in that range counts, other
 *     teams' too); a resume that would read more gets a reset
 * @param replayTimeout how long such a resume may wait for its turn and read before it gets a reset
 * @param replayConcurrency resumes reading from the broker at once on this replica; others wait
 */
@Validated
@ConfigurationProperties("agentteams.gateway.stream")
public record StreamProperties(
    @DefaultValue("1000") int windowPerTeam,
    @DefaultValue("10000") int maxTeams,
    @DefaultValue("1024") int subscriberBuffer,
    @DefaultValue("15s") Duration heartbeat,
    @DefaultValue("1MB") DataSize windowBytesPerTeam,
    @DefaultValue("128MB") DataSize windowBytesTotal,
    @DefaultValue("16MB") DataSize replayMaxBytes,
    @DefaultValue("10s") Duration replayTimeout,
    @DefaultValue("4") int replayConcurrency) {

  public StreamProperties {
    if (windowPerTeam < 1
        || maxTeams < 1
        || subscriberBuffer < 1
        || windowBytesPerTeam.toBytes() < 1
        || windowBytesTotal.toBytes() < windowBytesPerTeam.toBytes()
        || replayMaxBytes.toBytes() < 0
        || replayTimeout.isNegative()
        || replayTimeout.isZero()
        || replayConcurrency < 1) {
      throw new IllegalArgumentException(
          "agentteams.gateway.stream: sizes and the replay time-out must be positive, and"
              + " window-bytes-total at least window-bytes-per-team");
    }
  }
}
