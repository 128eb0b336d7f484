package io.agentteams.platform.web;

import io.agentteams.platform.problem.ProblemException;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The problems an operation can answer besides those every operation can (400, 401, 403), so the
 * API description lists each operation's errors as Problem Details.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Fails {

  ProblemException.Kind[] value();
}
