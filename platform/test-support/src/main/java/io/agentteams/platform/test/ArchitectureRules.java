package io.agentteams.platform.test;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The architecture every module keeps, stated once: each service's architecture test applies this
 * whole set ({@code ArchTests.in(ArchitectureRules.class)}) to its own classes, and the devstack's
 * to every module at once.
 */
public final class ArchitectureRules {

  /** The base packages of the deployable services. */
  public static final List<String> SERVICES =
      List.of("team", "mailbox", "taskboard", "scheduler", "gateway");

  private static final String ACCESS = "io.agentteams.platform.access";
  private static final String MEMBER_TOKEN = "io.agentteams.platform.identity.Caller$Member";
  private static final String DOMAIN_FAILURE = "io.agentteams.platform.problem.DomainFailure";
  private static final String HTTP_PROBLEM = "io.agentteams.platform.problem.ProblemException";
  private static final String NULL_MARKED = "org.jspecify.annotations.NullMarked";

  private static final String[] ADAPTER_PACKAGES = {
    "..web..", "..persistence..", "..messaging..", "..client.."
  };
  private static final String[] WIRE_PACKAGES = {
    "org.springframework.web..",
    "org.springframework.http..",
    "org.springframework.r2dbc..",
    "org.springframework.data.r2dbc..",
    "org.springframework.kafka..",
    "io.r2dbc..",
    "org.apache.kafka..",
    "reactor.netty.."
  };

  private ArchitectureRules() {}

  /** Domain code is plain Java: no Spring, R2DBC, Kafka, Reactor, Jackson or Micrometer. */
  @ArchTest
  public static final ArchRule domainIsFrameworkFree =
      noClasses()
          .that()
          .resideInAPackage("..domain..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.springframework..",
              "io.r2dbc..",
              "org.apache.kafka..",
              "reactor..",
              "tools.jackson..",
              "com.fasterxml.jackson..",
              "io.micrometer..",
              "io.netty..")
          .because("domain rules are plain Java with fast unit tests")
          .allowEmptyShould(true);

  /** Domain code does not reach out to the adapters that serve it. */
  @ArchTest
  public static final ArchRule domainDoesNotDependOnAdapters =
      noClasses()
          .that()
          .resideInAPackage("..domain..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("..application..", "..web..", "..persistence..", "..messaging..")
          .because("adapters depend on the domain, never the reverse")
          .allowEmptyShould(true);

  /**
   * The wire — HTTP, SQL and Kafka — is spoken by adapters only, whatever a package is called: a
   * class that uses Spring's web or HTTP types, R2DBC or Kafka lives in an adapter package ({@code
   * web}, {@code persistence}, {@code messaging}, {@code client}) or is the module's wiring (a
   * {@code @Configuration} class or its application class). A new capability package (say {@code
   * push} or {@code runtime}) is therefore checked like {@code application}: its wire talk moves
   * into an adapter beside it. The services behind the gateway keep it; the gateway is the edge,
   * whose capabilities (filters, controllers, streams, the console) are adapters by nature.
   */
  @ArchTest
  public static final ArchRule onlyAdaptersSpeakTheWire =
      noClasses()
          .that()
          .resideOutsideOfPackages(ADAPTER_PACKAGES)
          .and()
          .areNotAnnotatedWith("org.springframework.context.annotation.Configuration")
          .and()
          .areNotAnnotatedWith("org.springframework.boot.autoconfigure.SpringBootApplication")
          .and()
          .resideOutsideOfPackages(
              "io.agentteams.platform..", "io.agentteams.devstack..", "io.agentteams.gateway..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(WIRE_PACKAGES)
          .because("capabilities decide; adapters translate to and from the wire")
          .allowEmptyShould(true);

  /**
   * Inside a module, its capabilities ({@code io.agentteams.scheduler.job}, {@code
   * ...scheduler.budget}, {@code ...team.agents}) depend on each other one way only: a capability
   * that must call one that already knows it does so through a port it owns (an interface the other
   * implements) or an event, never by reaching back. The module's root package (its application and
   * wiring) belongs to no capability.
   */
  @ArchTest
  public static final ArchRule capabilitiesAreFreeOfCycles =
      slices()
          .matching("io.agentteams.(*).(*)..")
          .namingSlices("$1.$2")
          .should()
          .beFreeOfCycles()
          .because("an arrow back up between capabilities makes two of them one tangle")
          .allowEmptyShould(true);

  /** A service never uses another service's code; it learns from events or calls the API. */
  @ArchTest
  public static final ArchRule servicesAreIndependent =
      classes()
          .that()
          .resideInAnyPackage(
              SERVICES.stream().map(s -> "io.agentteams." + s + "..").toArray(String[]::new))
          .should(useNoOtherServicesCode())
          .because("services share contracts, never code")
          .allowEmptyShould(true);

  /** Shared infrastructure never depends on a service. */
  @ArchTest
  public static final ArchRule platformKnowsNoService =
      noClasses()
          .that()
          .resideInAnyPackage("io.agentteams.platform..", "io.agentteams.contracts..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              SERVICES.stream().map(s -> "io.agentteams." + s + "..").toArray(String[]::new))
          .because("the platform is shared infrastructure only")
          .allowEmptyShould(true);

  /**
   * Whether a caller may act on a team, and as whom, is decided by the platform's team access
   * alone: no other class reads which team a member token is for, or makes up a grant.
   */
  @ArchTest
  public static final ArchRule teamAccessIsDecidedOnce =
      noClasses()
          .that()
          .resideOutsideOfPackages(ACCESS + "..", "io.agentteams.platform.identity..")
          .should()
          .callMethod(MEMBER_TOKEN, "teamId")
          .orShould()
          .callConstructorWhere(
              target(
                  owner(
                      assignableTo(ACCESS + ".Grant")
                          .or(assignableTo(ACCESS + ".Acting"))
                          .as("a grant or whom it acts as"))))
          .because(
              "team access has one place to decide it (TeamAccess with the operation's"
                  + " AccessPolicy); a copy elsewhere drifts from it")
          .allowEmptyShould(true);

  /**
   * Domain and application code refuse with named domain failures; how a failure is answered over
   * HTTP is the web layer's business.
   */
  @ArchTest
  public static final ArchRule domainFailuresCarryNoHttp =
      noClasses()
          .that()
          .resideInAnyPackage("..domain..", "..application..")
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName(HTTP_PROBLEM)
          .orShould()
          .dependOnClassesThat()
          .resideInAnyPackage("io.agentteams.platform.web..", "org.springframework.http..")
          .because("domain failures name what went wrong; the web layer maps them to a status")
          .allowEmptyShould(true);

  /**
   * A domain failure is made by a named factory ({@code TeamProblems.tooFewMembers(min, actual)}),
   * never inline where it is thrown, so each failure's code and parameters are written once.
   */
  @ArchTest
  public static final ArchRule domainFailuresAreNamed =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.agentteams.platform..")
          .and()
          .haveSimpleNameNotEndingWith("Problems")
          .and()
          .areNotAssignableTo(DOMAIN_FAILURE)
          .should()
          .callConstructorWhere(target(owner(assignableTo(DOMAIN_FAILURE).as("a domain failure"))))
          .orShould()
          .callMethodWhere(
              target(owner(name(DOMAIN_FAILURE)))
                  .and(target(nameMatching("notFound|invalid|forbidden|conflict")))
                  .as("a factory of DomainFailure"))
          .because("a failure's code and parameters are named once, in its *Problems factory")
          .allowEmptyShould(true);

  /**
   * Every package of the product says, in its {@code package-info}, that what it declares is not
   * null unless marked {@code @Nullable}: a new package is no exception.
   */
  @ArchTest
  public static final ArchRule everyPackageIsNullMarked =
      classes()
          .that()
          .resideInAPackage("io.agentteams..")
          .and()
          .doNotHaveSimpleName("package-info")
          .should(beInANullMarkedPackage())
          .because("nullness is stated once per package, and a package without it states nothing")
          .allowEmptyShould(true);

  private static ArchCondition<JavaClass> beInANullMarkedPackage() {
    return new ArchCondition<>("be in a package annotated @NullMarked") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        if (!item.getPackage().isAnnotatedWith(NULL_MARKED)) {
          events.add(
              SimpleConditionEvent.violated(
                  item,
                  item.getName()
                      + " is in "
                      + item.getPackageName()
                      + ", whose package-info is not @NullMarked"));
        }
      }
    };
  }

  private static ArchCondition<JavaClass> useNoOtherServicesCode() {
    return new ArchCondition<>("use no other service's code") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        String own = serviceOf(item.getPackageName());
        for (Dependency dependency : item.getDirectDependenciesFromSelf()) {
          String other = serviceOf(dependency.getTargetClass().getPackageName());
          if (other != null && !other.equals(own)) {
            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
          }
        }
      }
    };
  }

  private static @Nullable String serviceOf(String packageName) {
    for (String service : SERVICES) {
      String base = "io.agentteams." + service;
      if (packageName.equals(base) || packageName.startsWith(base + ".")) {
        return service;
      }
    }
    return null;
  }
}
