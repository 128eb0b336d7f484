package io.agentteams.scheduler;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;
import io.agentteams.platform.test.ArchitectureRules;

/** This service's classes keep the architecture every module keeps. */
@AnalyzeClasses(
    packages = "io.agentteams.scheduler",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest static final ArchTests architecture = ArchTests.in(ArchitectureRules.class);

  @ArchTest static final ArchTests runtimes = ArchTests.in(RuntimeRules.class);
}
