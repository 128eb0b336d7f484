package io.agentteams.platform.test;

/** Where the shared Kafka and Postgres come from. */
interface Backend extends AutoCloseable {

  String kafkaBootstrapServers();

  /** Creates the database unless it exists and returns how to reach it. */
  Database database(String name);

  /** A short name for logs: embedded or containers. */
  String kind();

  @Override
  void close();
}
