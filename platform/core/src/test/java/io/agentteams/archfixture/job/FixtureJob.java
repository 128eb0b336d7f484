package io.agentteams.archfixture.job;

/** A job of the fixture capabilities, with what it used. */
public record FixtureJob(String id, long tokens) {}
