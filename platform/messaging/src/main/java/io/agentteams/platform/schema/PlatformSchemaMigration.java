package io.agentteams.platform.schema;

import org.flywaydb.core.Flyway;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;

/**
 * Migrates the platform's tables (schema {@code platform}, its own history table) before the
 * service's own migrations, with the same connection Flyway was configured with. The two histories
 * are independent, so platform and service migrations never compete for version numbers.
 */
public final class PlatformSchemaMigration implements FlywayMigrationStrategy {

  @Override
  public void migrate(Flyway serviceFlyway) {
    Flyway.configure(serviceFlyway.getConfiguration().getClassLoader())
        .dataSource(serviceFlyway.getConfiguration().getDataSource())
        .schemas("platform")
        .createSchemas(true)
        .table("platform_schema_history")
        .locations("classpath:db/platform")
        .load()
        .migrate();
    serviceFlyway.migrate();
  }
}
