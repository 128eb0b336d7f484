package io.agentteams.platform.test;

import java.sql.DriverManager;
import java.sql.SQLException;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** Kafka and Postgres from Testcontainers, for machines with a Docker engine. */
final class ContainerBackend implements Backend {

  private final PostgreSQLContainer postgres;
  private final KafkaContainer kafka;

  ContainerBackend() {
    postgres = new PostgreSQLContainer("postgres:18-alpine");
    kafka = new KafkaContainer("apache/kafka:4.1.2");
    postgres.start();
    kafka.start();
  }

  @Override
  public String kafkaBootstrapServers() {
    return kafka.getBootstrapServers();
  }

  @Override
  public Database database(String name) {
    try (var c =
            DriverManager.getConnection(
                postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());
        var s = c.createStatement()) {
      var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'");
      if (!rs.next()) {
        s.execute("CREATE DATABASE " + name);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not create database " + name, e);
    }
    String hostPort = postgres.getHost() + ":" + postgres.getMappedPort(5432);
    return new Database(
        name,
        "jdbc:postgresql://" + hostPort + "/" + name,
        "r2dbc:postgresql://" + hostPort + "/" + name,
        postgres.getUsername(),
        postgres.getPassword());
  }

  @Override
  public String kind() {
    return "containers";
  }

  @Override
  public void close() {
    kafka.stop();
    postgres.stop();
  }
}
