package io.agentteams.sdk;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** What the SDK's users must never have to take along with it. */
@AnalyzeClasses(packages = "io.agentteams.sdk")
class ArchitectureTest {

  @ArchTest
  static final ArchRule theSdkNeedsNoSpringNoReactorAndNoneOfTheServices =
      noClasses()
          .that()
          .resideInAPackage("io.agentteams.sdk..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.springframework..", "reactor..", "io.agentteams.platform..", "io.netty..")
          .as("the SDK depends only on the JDK, Jackson and JSpecify");
}
