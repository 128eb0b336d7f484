/** The stack's parts as processes of their own that anyone may kill, and what supervises them. */
@NullMarked
package io.agentteams.devstack.process;

import org.jspecify.annotations.NullMarked;
