/** One API description for the whole public API, merged from the services' own. */
@NullMarked
package io.agentteams.gateway.apidocs;

import org.jspecify.annotations.NullMarked;
