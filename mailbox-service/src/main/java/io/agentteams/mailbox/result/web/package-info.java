/** The results REST API. */
@NullMarked
package io.agentteams.mailbox.result.web;

import org.jspecify.annotations.NullMarked;
