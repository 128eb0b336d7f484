/**
 * Who is calling: owners, members, agent workers and services, and the signed tokens that carry
 * them between services.
 */
@NullMarked
package io.agentteams.platform.identity;

import org.jspecify.annotations.NullMarked;
