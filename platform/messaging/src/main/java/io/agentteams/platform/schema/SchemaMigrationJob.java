package io.agentteams.platform.schema;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

/**
 * Migrates one service's database and exits: the platform's tables, then the service's own, as the
 * owner of the schemas; then grants the role the service runs as what it needs to read and write
 * rows, and nothing that changes the schema. Deployments run it once per release, before the new
 * version's pods start (the chart's pre-install/pre-upgrade Job), with credentials the services
 * never get; the services then run with Flyway off.
 *
 * <p>Run from a service's image: {@code java -cp /app/app.jar
 * io.agentteams.platform.schema.SchemaMigrationJob}. Reads {@code SPRING_FLYWAY_URL}, {@code
 * SPRING_FLYWAY_USER}, {@code SPRING_FLYWAY_PASSWORD}, {@code SPRING_FLYWAY_LOCATIONS} (the
 * service's migrations, e.g. {@code classpath:db/migration/team}) and {@code
 * AGENTTEAMS_SCHEMA_RUNTIME_ROLE} (the role the service runs as; no grants when unset).
 */
public final class SchemaMigrationJob {

  /** The schemas whose tables a service reads and writes. */
  static final List<String> SCHEMAS = List.of("public", "platform");

  private static final Pattern ROLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,62}");

  private final String url;
  private final String user;
  private final String password;
  private final String locations;
  private final @Nullable String runtimeRole;

  /**
   * @param url the JDBC URL of the service's database
   * @param user the role that owns the schemas and runs the migrations
   * @param password its password
   * @param locations where the service's migrations are, e.g. {@code classpath:db/migration/team}
   * @param runtimeRole the role the service runs as, granted row access; null for no grants
   */
  public SchemaMigrationJob(
      String url, String user, String password, String locations, @Nullable String runtimeRole) {
    if (runtimeRole != null && !ROLE.matcher(runtimeRole).matches()) {
      throw new IllegalArgumentException("not a role name: " + runtimeRole);
    }
    this.url = url;
    this.user = user;
    this.password = password;
    this.locations = locations;
    this.runtimeRole = runtimeRole;
  }

  public static void main(String[] args) throws SQLException {
    Map<String, String> env = System.getenv();
    String runtimeRole = env.get("AGENTTEAMS_SCHEMA_RUNTIME_ROLE");
    new SchemaMigrationJob(
            required(env, "SPRING_FLYWAY_URL"),
            required(env, "SPRING_FLYWAY_USER"),
            env.getOrDefault("SPRING_FLYWAY_PASSWORD", ""),
            required(env, "SPRING_FLYWAY_LOCATIONS"),
            runtimeRole == null || runtimeRole.isBlank() ? null : runtimeRole)
        .run();
  }

  /** Migrates, then grants. Safe to run again: both steps are idempotent. */
  public void run() throws SQLException {
    new PlatformSchemaMigration()
        .migrate(Flyway.configure().dataSource(url, user, password).locations(locations).load());
    if (runtimeRole != null) {
      try (Connection connection = DriverManager.getConnection(url, user, password);
          Statement statement = connection.createStatement()) {
        for (String grant : grants(runtimeRole)) {
          statement.execute(grant);
        }
      }
    }
  }

  /**
   * Row access on every table and sequence the migrations made, for the role a service runs as; the
   * migration histories stay read-only to it. The role owns nothing and is granted no CREATE, so it
   * cannot alter the schema.
   */
  static List<String> grants(String role) {
    String quoted = "\"" + role + "\"";
    String schemas = String.join(", ", SCHEMAS);
    List<String> grants = new ArrayList<>();
    grants.add("GRANT USAGE ON SCHEMA " + schemas + " TO " + quoted);
    grants.add(
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "
            + schemas
            + " TO "
            + quoted);
    grants.add(
        "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + schemas + " TO " + quoted);
    grants.add("GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA " + schemas + " TO " + quoted);
    grants.add(
        "REVOKE INSERT, UPDATE, DELETE ON public.flyway_schema_history,"
            + " platform.platform_schema_history FROM "
            + quoted);
    return grants;
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      System.err.println("SchemaMigrationJob: " + name + " is required");
      System.exit(2);
    }
    return value;
  }
}
