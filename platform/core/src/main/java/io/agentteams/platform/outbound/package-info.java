/**
 * The guard every outbound call to a user-supplied URL goes through: which URLs and addresses may
 * be called, and an HTTP client that resolves, checks and connects to exactly what it checked.
 */
@NullMarked
package io.agentteams.platform.outbound;

import org.jspecify.annotations.NullMarked;
