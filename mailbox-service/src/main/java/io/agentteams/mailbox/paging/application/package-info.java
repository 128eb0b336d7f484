/** Paging by cursor and keeping responses within their UTF-8 JSON byte budget. */
@NullMarked
package io.agentteams.mailbox.paging.application;

import org.jspecify.annotations.NullMarked;
