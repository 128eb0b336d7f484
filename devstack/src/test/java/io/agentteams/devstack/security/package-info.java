/** The security model end to end: what each part refuses to start without, and whose keys count. */
@NullMarked
package io.agentteams.devstack.security;

import org.jspecify.annotations.NullMarked;
