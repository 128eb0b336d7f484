package io.agentteams.team.teams.application;

/** A runtime refused to provide a conversation, and asking again will not change that. */
public class ConversationRejected extends RuntimeException {

  public ConversationRejected(String message) {
    super(message);
  }
}
