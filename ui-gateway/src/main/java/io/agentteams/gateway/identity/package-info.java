/** Who is calling at the edge: public tokens in, internal tokens out to the services. */
@NullMarked
package io.agentteams.gateway.identity;

import org.jspecify.annotations.NullMarked;
