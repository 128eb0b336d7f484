/**
 * The client's plumbing (HTTP calls with Problem Details, JSON, server-sent events); not part of
 * the SDK's API and free to change.
 */
@NullMarked
package io.agentteams.sdk.internal;

import org.jspecify.annotations.NullMarked;
