/** The API description every service serves at {@code /v3/api-docs}, in the wire's own terms. */
@NullMarked
package io.agentteams.platform.web.openapi;

import org.jspecify.annotations.NullMarked;
