package io.agentteams.devstack;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;
import io.agentteams.platform.test.ArchitectureRules;

/** The rules over every module at once, where every service's classes are in view together. */
@AnalyzeClasses(packages = "io.agentteams", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest static final ArchTests architecture = ArchTests.in(ArchitectureRules.class);
}
