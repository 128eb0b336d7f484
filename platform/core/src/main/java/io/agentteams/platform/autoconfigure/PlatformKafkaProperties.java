package io.agentteams.platform.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the event topics are created when missing.
 *
 * @param partitions partitions per event topic; a team's events always share one
 * @param replicationFactor replicas per partition (1 for the embedded stack, 3 in production)
 */
@Validated
@ConfigurationProperties("agentteams.kafka")
public record PlatformKafkaProperties(
    @DefaultValue("12") int partitions, @DefaultValue("1") short replicationFactor) {}
