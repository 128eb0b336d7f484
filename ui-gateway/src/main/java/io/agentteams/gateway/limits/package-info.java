/** Edge limits: request rates per token and request body sizes. */
@NullMarked
package io.agentteams.gateway.limits;

import org.jspecify.annotations.NullMarked;
