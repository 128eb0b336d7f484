/** Keeping result records from scheduler events, searching them and reading one. */
@NullMarked
package io.agentteams.mailbox.result.application;

import org.jspecify.annotations.NullMarked;
