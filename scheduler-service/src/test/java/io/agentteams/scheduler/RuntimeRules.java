package io.agentteams.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.agentteams.scheduler.runtime.application.RuntimeAdapter;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The runtime model's architecture: the leased-dispatch lifecycle is plain application code, each
 * runtime adapter speaks only its own wire, and what they share lives in {@code runtime}. Runtime
 * adapters are found by role (a class implementing {@link RuntimeAdapter}), not by package name, so
 * a fourth runtime is checked the day it is added.
 */
public final class RuntimeRules {

  private static final String SCHEDULER = "io.agentteams.scheduler";

  private RuntimeRules() {}

  /** The shared lifecycle and its rules speak no wire: no Spring web, HTTP, R2DBC or Kafka. */
  @ArchTest
  public static final ArchRule runtimeLifecycleIsFreeOfTheWire =
      noClasses()
          .that()
          .resideInAnyPackage(SCHEDULER + ".runtime.domain..", SCHEDULER + ".runtime.application..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.springframework.web..",
              "org.springframework.http..",
              "org.springframework.r2dbc..",
              "org.springframework.data.r2dbc..",
              "org.springframework.kafka..",
              "io.r2dbc..",
              "org.apache.kafka..",
              "reactor.netty..")
          .because("the lifecycle decides; each runtime's adapters translate to and from its wire")
          .allowEmptyShould(true);

  /** No runtime adapter's capability uses another's code: what they share lives in runtime. */
  @ArchTest
  public static final ArchRule runtimeAdaptersAreIndependent =
      classes()
          .should(useNoOtherRuntimesCode())
          .because("a runtime only speaks its wire; a shared piece moves into runtime")
          .allowEmptyShould(true);

  /** The pull runtime's web types stay in the web layer: only web code imports them. */
  @ArchTest
  public static final ArchRule webTypesStayInTheWeb =
      noClasses()
          .that()
          .resideOutsideOfPackage("..web..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(SCHEDULER + ".dispatch.web..")
          .because("a runtime shares the protocol's types from application, never from web")
          .allowEmptyShould(true);

  private static ArchCondition<JavaClass> useNoOtherRuntimesCode() {
    return new ArchCondition<>("use no other runtime adapter's code") {
      private final Set<String> runtimes = new TreeSet<>();

      @Override
      public void init(Collection<JavaClass> all) {
        for (JavaClass item : all) {
          if (!item.isInterface() && item.isAssignableTo(RuntimeAdapter.class)) {
            runtimes.add(capabilityOf(item.getPackageName()));
          }
        }
      }

      @Override
      public void check(JavaClass item, ConditionEvents events) {
        String own = runtimeOf(item.getPackageName());
        if (own == null) {
          return;
        }
        for (Dependency dependency : item.getDirectDependenciesFromSelf()) {
          String other = runtimeOf(dependency.getTargetClass().getPackageName());
          if (other != null && !other.equals(own)) {
            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
          }
        }
      }

      private @Nullable String runtimeOf(String packageName) {
        for (String runtime : runtimes) {
          if (packageName.equals(runtime) || packageName.startsWith(runtime + ".")) {
            return runtime;
          }
        }
        return null;
      }
    };
  }

  /**
   * The capability an adapter serves: its package's parent ({@code webhook} for its application).
   */
  private static String capabilityOf(String packageName) {
    int last = packageName.lastIndexOf('.');
    return last < 0 ? packageName : packageName.substring(0, last);
  }
}
