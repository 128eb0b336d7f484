/**
 * Team access at the gateway: what the caller's token alone decides, by the platform's team access;
 * whether an owner may see a team is team-service's answer.
 */
@NullMarked
package io.agentteams.gateway.access;

import org.jspecify.annotations.NullMarked;
