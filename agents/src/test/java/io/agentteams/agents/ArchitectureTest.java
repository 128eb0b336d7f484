package io.agentteams.agents;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The reference agents are what a user of the SDK could have written. */
@AnalyzeClasses(packages = "io.agentteams.agents")
class ArchitectureTest {

  @ArchTest
  static final ArchRule theAgentsUseTheSdksApiOnly =
      noClasses()
          .that()
          .resideInAPackage("io.agentteams.agents..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.agentteams.sdk.internal..",
              "io.agentteams.platform..",
              "org.springframework..",
              "reactor..")
          .as("the reference agents use the SDK's public API, like any agent platform");
}
