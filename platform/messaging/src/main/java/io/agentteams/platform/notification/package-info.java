/** Postgres LISTEN/NOTIFY: one listening connection per process, shared by its subscribers. */
@NullMarked
package io.agentteams.platform.notification;

import org.jspecify.annotations.NullMarked;
