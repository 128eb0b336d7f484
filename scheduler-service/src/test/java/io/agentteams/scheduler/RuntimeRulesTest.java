package io.agentteams.scheduler;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.agentteams.scheduler.archfixture.PullOfferLeak;
import io.agentteams.scheduler.archfixture.alpha.application.AlphaAdapter;
import io.agentteams.scheduler.archfixture.beta.application.BetaAdapter;
import org.junit.jupiter.api.Test;

/** The runtime rules fail on code that breaks them and pass on the scheduler's own. */
class RuntimeRulesTest {

  private static JavaClasses of(Class<?>... classes) {
    return new ClassFileImporter().importClasses(classes);
  }

  private static JavaClasses fixture(String name) throws ClassNotFoundException {
    return of(Class.forName(name));
  }

  @Test
  void aRuntimeAdapterThatUsesAnotherRuntimesCodeBreaksTheIndependenceRule() {
    assertThatThrownBy(
            () ->
                RuntimeRules.runtimeAdaptersAreIndependent.check(
                    of(AlphaAdapter.class, BetaAdapter.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("BetaAdapter")
        .hasMessageContaining("AlphaAdapter.messageId");
  }

  @Test
  void runtimeAdaptersThatKeepToThemselvesKeepTheIndependenceRule() {
    assertThatCode(() -> RuntimeRules.runtimeAdaptersAreIndependent.check(of(AlphaAdapter.class)))
        .doesNotThrowAnyException();
  }

  @Test
  void lifecycleCodeThatSpeaksHttpBreaksTheWireRule() throws ClassNotFoundException {
    JavaClasses wire = fixture("io.agentteams.scheduler.runtime.application.WireSpeakingLifecycle");
    assertThatThrownBy(() -> RuntimeRules.runtimeLifecycleIsFreeOfTheWire.check(wire))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("WireSpeakingLifecycle")
        .hasMessageContaining("WebClient");
  }

  @Test
  void codeOutsideTheWebThatImportsThePullRuntimesWebTypesBreaksTheWebRule() {
    assertThatThrownBy(() -> RuntimeRules.webTypesStayInTheWeb.check(of(PullOfferLeak.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PullOfferLeak")
        .hasMessageContaining("WorkerEventsController");
  }

  @Test
  void theSchedulersOwnRuntimesKeepEveryRuntimeRule() {
    JavaClasses scheduler =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.agentteams.scheduler");
    assertThatCode(
            () -> {
              RuntimeRules.runtimeLifecycleIsFreeOfTheWire.check(scheduler);
              RuntimeRules.runtimeAdaptersAreIndependent.check(scheduler);
              RuntimeRules.webTypesStayInTheWeb.check(scheduler);
            })
        .doesNotThrowAnyException();
  }
}
