/**
 * Who is using the console: signed session cookies (any replica can read them), the development and
 * OpenID Connect sign-ins, CSRF tokens bound to the session, and sign-out.
 */
@NullMarked
package io.agentteams.gateway.console.session;

import org.jspecify.annotations.NullMarked;
