package io.agentteams.mailbox.message.persistence;

import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;

/** Binding values that may be null, which R2DBC needs typed. */
final class Binds {

  private Binds() {}

  static DatabaseClient.GenericExecuteSpec nullable(
      DatabaseClient.GenericExecuteSpec spec, String name, @Nullable Object value, Class<?> type) {
    return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
  }
}
