package io.agentteams.platform.test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/** The architecture every service keeps, stated once so each module checks the same sentences. */
public final class ArchitectureRules {

  /** The base packages of the deployable services. */
  public static final List<String> SERVICES =
      List.of("team", "mailbox", "taskboard", "scheduler", "gateway");

  private ArchitectureRules() {}

  /** Domain code is plain Java: no Spring, R2DBC, Kafka, Reactor, Jackson or Micrometer. */
  public static ArchRule domainIsFrameworkFree() {
    return noClasses()
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
  }

  /** Domain code does not reach out to the adapters that serve it. */
  public static ArchRule domainDoesNotDependOnAdapters() {
    return noClasses()
        .that()
        .resideInAPackage("..domain..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("..application..", "..web..", "..persistence..", "..messaging..")
        .because("adapters depend on the domain, never the reverse")
        .allowEmptyShould(true);
  }

  /** A service never uses another service's code; it learns from events or calls the API. */
  public static ArchRule serviceIsIndependent(String service) {
    String[] others =
        SERVICES.stream()
            .filter(s -> !s.equals(service))
            .map(s -> "io.agentteams." + s + "..")
            .toArray(String[]::new);
    return noClasses()
        .that()
        .resideInAPackage("io.agentteams." + service + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(others)
        .because("services share contracts, never code")
        .allowEmptyShould(true);
  }

  /** Shared infrastructure never depends on a service. */
  public static ArchRule platformKnowsNoService() {
    return noClasses()
        .that()
        .resideInAnyPackage("io.agentteams.platform..", "io.agentteams.contracts..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            SERVICES.stream().map(s -> "io.agentteams." + s + "..").toArray(String[]::new))
        .because("the platform is shared infrastructure only")
        .allowEmptyShould(true);
  }
}
