/** The console's team runs: start one, follow its timeline, approve or reject its plan, cancel. */
@NullMarked
package io.agentteams.gateway.console.runs;

import org.jspecify.annotations.NullMarked;
