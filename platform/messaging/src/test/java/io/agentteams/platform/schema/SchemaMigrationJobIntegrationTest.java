package io.agentteams.platform.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The migration job migrates as the schema's owner and leaves the role a service runs as able to
 * read and write rows, and unable to change the schema.
 */
@RealInfrastructure
class SchemaMigrationJobIntegrationTest {

  private Database database;
  private String migrator;
  private String runtime;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) throws SQLException {
    database = infrastructure.freshDatabase("schema_job");
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    migrator = "migrator_" + suffix;
    runtime = "runtime_" + suffix;
    try (Connection admin =
            DriverManager.getConnection(
                database.jdbcUrl(), database.username(), database.password());
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE ROLE " + migrator + " LOGIN PASSWORD 'migrator'");
      statement.execute("CREATE ROLE " + runtime + " LOGIN PASSWORD 'runtime'");
      statement.execute("ALTER DATABASE " + database.name() + " OWNER TO " + migrator);
      statement.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    }
  }

  @Test
  void theServiceRoleReadsAndWritesRowsButCannotChangeTheSchema() throws SQLException {
    job().run();
    // Running again (the next release's hook) changes nothing and still succeeds.
    job().run();

    try (Connection service = connect(runtime, "runtime");
        Statement statement = service.createStatement()) {
      statement.execute(
          "INSERT INTO effect_log (consumer, event_id, team_id, sequence)"
              + " VALUES ('c', gen_random_uuid(), 't', 1)");
      statement.execute(
          "INSERT INTO platform.processed_event (consumer, event_id)"
              + " VALUES ('c', gen_random_uuid())");
      statement.execute("UPDATE platform.outbox_lane SET last_claimed_at = now() WHERE lane = 0");
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM platform.outbox")) {
        assertThat(rows.next()).isTrue();
      }
      statement.execute("DELETE FROM effect_log");

      assertThatThrownBy(() -> statement.execute("CREATE TABLE public.sneaky (i int)"))
          .hasMessageContaining("permission denied");
      assertThatThrownBy(() -> statement.execute("CREATE TABLE platform.sneaky (i int)"))
          .hasMessageContaining("permission denied");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE platform.outbox ADD COLUMN x int"))
          .hasMessageContaining("must be owner");
      assertThatThrownBy(() -> statement.execute("DROP TABLE effect_log"))
          .hasMessageContaining("must be owner");
      assertThatThrownBy(() -> statement.execute("DELETE FROM flyway_schema_history"))
          .hasMessageContaining("permission denied");
    }
  }

  @Test
  void refusesARoleNameThatIsNotOne() {
    assertThatThrownBy(
            () ->
                new SchemaMigrationJob(
                    database.jdbcUrl(), migrator, "m", "classpath:db/fixture", "x\"; DROP"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private SchemaMigrationJob job() {
    return new SchemaMigrationJob(
        database.jdbcUrl(), migrator, "migrator", "classpath:db/fixture", runtime);
  }

  private Connection connect(String role, String password) throws SQLException {
    return DriverManager.getConnection(database.jdbcUrl(), role, password);
  }
}
