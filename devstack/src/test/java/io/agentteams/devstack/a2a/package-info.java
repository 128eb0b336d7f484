/** A2A 1.0 end to end, with the official A2A JS SDK as the peer on loopback. */
@NullMarked
package io.agentteams.devstack.a2a;

import org.jspecify.annotations.NullMarked;
