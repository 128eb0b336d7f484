package io.agentteams.platform.test;

/** One database of the shared Postgres, with the URLs a service needs to reach it. */
public record Database(
    String name, String jdbcUrl, String r2dbcUrl, String username, String password) {}
