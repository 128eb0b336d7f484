/**
 * Classes that break (and keep) the shared architecture rules, so the rules' own test shows that
 * each one fails where it should.
 */
@NullMarked
package io.agentteams.archfixture;

import org.jspecify.annotations.NullMarked;
