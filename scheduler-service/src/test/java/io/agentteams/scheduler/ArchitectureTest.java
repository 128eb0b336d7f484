package io.agentteams.scheduler;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.agentteams.platform.test.ArchitectureRules;

@AnalyzeClasses(
    packages = "io.agentteams.scheduler",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest static final ArchRule domainIsFrameworkFree = ArchitectureRules.domainIsFrameworkFree();

  @ArchTest
  static final ArchRule domainDoesNotDependOnAdapters =
      ArchitectureRules.domainDoesNotDependOnAdapters();

  @ArchTest
  static final ArchRule serviceIsIndependent = ArchitectureRules.serviceIsIndependent("scheduler");
}
