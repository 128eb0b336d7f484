/**
 * The public API's descriptions: one OpenAPI document merged from the services' own, and the
 * AsyncAPI document of the streams.
 */
@NullMarked
package io.agentteams.gateway.apidocs;

import org.jspecify.annotations.NullMarked;
