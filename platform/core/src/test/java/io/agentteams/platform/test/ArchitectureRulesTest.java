package io.agentteams.platform.test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.agentteams.archfixture.budget.CyclicLedger;
import io.agentteams.archfixture.budget.PortedLedger;
import io.agentteams.archfixture.job.CyclicJobs;
import io.agentteams.archfixture.job.FixtureJob;
import io.agentteams.archfixture.job.JobSpending;
import io.agentteams.archfixture.job.PortedJobs;
import io.agentteams.archfixture.team.application.MadeUpGrant;
import io.agentteams.archfixture.team.application.OwnAccessCheck;
import io.agentteams.archfixture.team.client.WireClient;
import io.agentteams.archfixture.team.domain.FixtureProblems;
import io.agentteams.archfixture.team.domain.HttpFlavouredRule;
import io.agentteams.archfixture.team.domain.InlineFailure;
import io.agentteams.archfixture.team.domain.NamedRule;
import io.agentteams.archfixture.team.planning.WirePlanner;
import io.agentteams.archfixture.team.runtime.WirePusher;
import io.agentteams.platform.access.TeamAccess;
import org.junit.jupiter.api.Test;

/** The shared rules fail on code that breaks them and pass on code that keeps them. */
class ArchitectureRulesTest {

  private static JavaClasses of(Class<?>... classes) {
    return new ClassFileImporter().importClasses(classes);
  }

  @Test
  void aServiceThatReadsAMemberTokensTeamItselfBreaksTheAccessRule() {
    assertThatThrownBy(
            () -> ArchitectureRules.teamAccessIsDecidedOnce.check(of(OwnAccessCheck.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("OwnAccessCheck")
        .hasMessageContaining("teamId");
  }

  @Test
  void aServiceThatMakesUpWhomACallerActsAsBreaksTheAccessRule() {
    assertThatThrownBy(() -> ArchitectureRules.teamAccessIsDecidedOnce.check(of(MadeUpGrant.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("MadeUpGrant");
  }

  @Test
  void theSharedTeamAccessKeepsTheAccessRule() {
    assertThatCode(() -> ArchitectureRules.teamAccessIsDecidedOnce.check(of(TeamAccess.class)))
        .doesNotThrowAnyException();
  }

  @Test
  void aDomainRuleThatThrowsTheHttpProblemBreaksTheFailureRule() {
    assertThatThrownBy(
            () -> ArchitectureRules.domainFailuresCarryNoHttp.check(of(HttpFlavouredRule.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("ProblemException");
  }

  @Test
  void aFailureBuiltWhereItIsThrownBreaksTheNamingRule() {
    assertThatThrownBy(
            () -> ArchitectureRules.domainFailuresAreNamed.check(of(InlineFailure.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("InlineFailure");
  }

  @Test
  void namedFailuresKeepBothFailureRules() {
    JavaClasses named = of(FixtureProblems.class, NamedRule.class);
    assertThatCode(() -> ArchitectureRules.domainFailuresAreNamed.check(named))
        .doesNotThrowAnyException();
    assertThatCode(() -> ArchitectureRules.domainFailuresCarryNoHttp.check(named))
        .doesNotThrowAnyException();
  }

  @Test
  void aClassInAPackageThatIsNotNullMarkedBreaksTheNullnessRule() {
    assertThatThrownBy(() -> ArchitectureRules.everyPackageIsNullMarked.check(of(WirePusher.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("WirePusher")
        .hasMessageContaining("not @NullMarked");
  }

  @Test
  void aClassInANullMarkedPackageKeepsTheNullnessRule() throws ClassNotFoundException {
    JavaClasses marked =
        of(TeamAccess.class, Class.forName("io.agentteams.platform.access.package-info"));
    assertThatCode(() -> ArchitectureRules.everyPackageIsNullMarked.check(marked))
        .doesNotThrowAnyException();
  }

  @Test
  void httpSpokenInANewlyNamedCapabilityPackageBreaksTheWireRule() {
    assertThatThrownBy(() -> ArchitectureRules.onlyAdaptersSpeakTheWire.check(of(WirePusher.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("WirePusher")
        .hasMessageContaining("WebClient");
  }

  @Test
  void httpSpokenInAnAdapterPackageKeepsTheWireRule() {
    assertThatCode(() -> ArchitectureRules.onlyAdaptersSpeakTheWire.check(of(WireClient.class)))
        .doesNotThrowAnyException();
  }

  @Test
  void springWebUsedInAPlanningPackageBreaksTheWireRule() {
    assertThatThrownBy(
            () -> ArchitectureRules.onlyAdaptersSpeakTheWire.check(of(WirePlanner.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("WirePlanner")
        .hasMessageContaining("UriComponentsBuilder");
  }

  @Test
  void twoCapabilitiesThatCallEachOtherBreakTheCycleRule() {
    JavaClasses tangled = of(CyclicJobs.class, FixtureJob.class, CyclicLedger.class);
    assertThatThrownBy(() -> ArchitectureRules.capabilitiesAreFreeOfCycles.check(tangled))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("archfixture.job")
        .hasMessageContaining("archfixture.budget")
        .hasMessageContaining("CyclicLedger");
  }

  @Test
  void aCapabilityThatCallsThroughItsOwnPortKeepsTheCycleRule() {
    JavaClasses ported =
        of(PortedJobs.class, JobSpending.class, FixtureJob.class, PortedLedger.class);
    assertThatCode(() -> ArchitectureRules.capabilitiesAreFreeOfCycles.check(ported))
        .doesNotThrowAnyException();
  }
}
