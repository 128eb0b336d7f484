package io.agentteams.platform.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test a real Kafka broker and a real Postgres. Both are started once per test JVM and
 * shared by every test in it: from Testcontainers where a Docker engine answers, otherwise embedded
 * (Kafka in KRaft mode in-process, Postgres from packaged binaries). A test never cares which; it
 * asks {@link TestInfrastructure} for addresses and databases.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(InfrastructureExtension.class)
public @interface RealInfrastructure {

  /** The database a Spring application under test uses; none when empty. */
  String database() default "";
}
