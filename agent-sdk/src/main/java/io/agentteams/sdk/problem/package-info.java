/**
 * What a failed call throws: a typed exception per kind of answer, carrying the Problem Details.
 */
@NullMarked
package io.agentteams.sdk.problem;

import org.jspecify.annotations.NullMarked;
