/** Routes of the public API to the services that own each path. */
@NullMarked
package io.agentteams.gateway.routing;

import org.jspecify.annotations.NullMarked;
