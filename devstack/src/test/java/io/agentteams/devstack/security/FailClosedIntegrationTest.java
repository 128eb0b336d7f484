package io.agentteams.devstack.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.agentteams.devstack.DevelopmentKeys;
import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.platform.identity.MissingSettingException;
import io.agentteams.platform.identity.SettingFailureAnalyzer;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.TestInfrastructure;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Nothing has a key by default: each part started as a deployment would, without one of the keys it
 * holds, refuses to start and names the missing setting.
 */
class FailClosedIntegrationTest {

  private static final DevelopmentKeys KEYS = DevelopmentKeys.generate();

  @ParameterizedTest(name = "{0} without {1}")
  @CsvSource({
    "TEAM, agentteams.identity.internal-verification-keys",
    "MAILBOX, agentteams.identity.internal-verification-keys",
    "TASK_BOARD, agentteams.identity.internal-verification-keys",
    "SCHEDULER, agentteams.identity.internal-verification-keys",
    "SCHEDULER, agentteams.scheduler.dispatch-signing-keys",
    "SCHEDULER, agentteams.scheduler.secrets-keys",
    "SCHEDULER, agentteams.scheduler.secret-unsealing-keys",
    "TEAM, agentteams.team.secrets-keys",
    "TEAM, agentteams.team.secret-sealing-keys",
    "GATEWAY, agentteams.gateway.identity.internal-signing-keys",
    "GATEWAY, agentteams.gateway.identity.edge-keys",
    "GATEWAY, agentteams.gateway.identity.dispatch-verification-keys",
  })
  void aPartStartedWithoutOneOfItsKeysRefusesNamingIt(Service service, String setting) {
    Map<String, Object> properties = new LinkedHashMap<>(KEYS.settingsFor(service));
    assertThat(properties).containsKey(setting);
    properties.remove(setting);
    properties.put("agentteams.kafka.partitions", 4);
    properties.put("logging.level.root", "OFF");

    Throwable refused =
        catchThrowable(() -> ServiceStack.runAlone(service, settings(service, properties)));

    MissingSettingException missing = missingSetting(refused);
    assertThat(missing.setting()).isEqualTo(setting);
    assertThat(missing.getMessage())
        .contains(setting)
        .contains(MissingSettingException.environmentVariable(setting));
    assertThat(new SettingFailureAnalyzer().analyze(refused))
        .as("the start-up report names the setting instead of a stack of bean failures")
        .satisfies(analysis -> assertThat(analysis.getAction()).contains(setting));
  }

  @Test
  void aServiceGivenTheGatewaysPrivateKeyRefusesToStart() {
    // Every other key it holds as it should, so that the private one is what it refuses.
    Map<String, Object> properties = new LinkedHashMap<>(KEYS.settingsFor(Service.TEAM));
    properties.put(
        "agentteams.identity.internal-verification-keys", KEYS.internalSigning()); // private!
    properties.put("logging.level.root", "OFF");
    Throwable refused =
        catchThrowable(
            () -> ServiceStack.runAlone(Service.TEAM, settings(Service.TEAM, properties)));
    assertThat(refused).isNotNull();
    assertThat(rootMessage(refused))
        .contains("agentteams.identity.internal-verification-keys")
        .contains("private");
  }

  private static ServiceStack.Settings settings(Service service, Map<String, Object> properties) {
    TestInfrastructure shared = TestInfrastructure.shared();
    Map<Service, DatabaseAccess> databases = new EnumMap<>(Service.class);
    if (service.database() != null) {
      Database db = shared.freshDatabase("closed_" + service.database());
      databases.put(
          service, new DatabaseAccess(db.r2dbcUrl(), db.jdbcUrl(), db.username(), db.password()));
    }
    return new ServiceStack.Settings(
        shared.kafkaBootstrapServers(), databases, Map.of(), properties);
  }

  private static MissingSettingException missingSetting(Throwable refused) {
    for (Throwable t = refused; t != null; t = t.getCause()) {
      if (t instanceof MissingSettingException missing) {
        return missing;
      }
    }
    throw new AssertionError("the start failed, but not for a missing setting", refused);
  }

  private static String rootMessage(Throwable refused) {
    Throwable t = refused;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
  }
}
