/** WebFlux adapters shared by every service: Problem Details and the verified caller. */
@NullMarked
package io.agentteams.platform.web;

import org.jspecify.annotations.NullMarked;
