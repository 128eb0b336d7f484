/** The messages and inbox REST API. */
@NullMarked
package io.agentteams.mailbox.message.web;

import org.jspecify.annotations.NullMarked;
