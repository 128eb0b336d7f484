package io.agentteams.devstack;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.agentteams.platform.test.ArchitectureRules;

/** The rules over every module at once, where every service's classes are in view together. */
@AnalyzeClasses(packages = "io.agentteams", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest static final ArchRule domainIsFrameworkFree = ArchitectureRules.domainIsFrameworkFree();

  @ArchTest
  static final ArchRule domainDoesNotDependOnAdapters =
      ArchitectureRules.domainDoesNotDependOnAdapters();

  @ArchTest
  static final ArchRule teamIsIndependent = ArchitectureRules.serviceIsIndependent("team");

  @ArchTest
  static final ArchRule mailboxIsIndependent = ArchitectureRules.serviceIsIndependent("mailbox");

  @ArchTest
  static final ArchRule taskBoardIsIndependent =
      ArchitectureRules.serviceIsIndependent("taskboard");

  @ArchTest
  static final ArchRule schedulerIsIndependent =
      ArchitectureRules.serviceIsIndependent("scheduler");

  @ArchTest
  static final ArchRule gatewayIsIndependent = ArchitectureRules.serviceIsIndependent("gateway");

  @ArchTest
  static final ArchRule platformKnowsNoService = ArchitectureRules.platformKnowsNoService();
}
