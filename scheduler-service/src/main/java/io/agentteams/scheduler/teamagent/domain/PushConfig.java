package io.agentteams.scheduler.teamagent.domain;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Where an A2A client wants a task's state changes pushed.
 *
 * @param jobId the task's job
 * @param id the config's id, unique per task
 * @param url where pushes go (checked by the outbound guard when created and on every push)
 * @param token the client's token: sent back in {@code X-A2A-Notification-Token} and the key of the
 *     pushes' Standard Webhooks signatures
 * @param authScheme the scheme of the {@code Authorization} header pushes carry, if any
 * @param authCredentials its credentials
 */
public record PushConfig(
    UUID jobId,
    String id,
    String url,
    @Nullable String token,
    @Nullable String authScheme,
    @Nullable String authCredentials) {}
