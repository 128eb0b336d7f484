/**
 * The live demo of the embedded stack: scripted agents as workers, a demo owner and a demo team
 * that collaborates on a small goal and leaves one question for the owner.
 */
@NullMarked
package io.agentteams.devstack.demo;

import org.jspecify.annotations.NullMarked;
