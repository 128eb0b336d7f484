/** The history REST API and the gateway's recent-messages endpoint. */
@NullMarked
package io.agentteams.mailbox.history.web;

import org.jspecify.annotations.NullMarked;
