package io.agentteams.gateway.stream;

import java.util.HashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Which members an event is about, read once when the event arrives so that per-member streams
 * filter cheaply: the values of the fields that name members in the events of every service
 * (recipients, the member that claimed or read, a task's owner, the from and to of a hand-over).
 */
final class EventAudience {

  private static final Set<String> MEMBER_FIELDS =
      Set.of(
          "member",
          "recipient",
          "owner",
          "assignee",
          "from",
          "to",
          "previous_owner",
          "new_owner",
          "claimed_by",
          "created_by",
          "requester",
          "sender");

  private EventAudience() {}

  static Set<String> of(JsonNode data) {
    Set<String> members = new HashSet<>();
    collect(data, members);
    collect(data.path("task"), members);
    for (JsonNode recipient : data.path("recipients")) {
      if (recipient.isString()) {
        members.add(recipient.asString());
      } else {
        collect(recipient, members);
      }
    }
    return members;
  }

  private static void collect(JsonNode node, Set<String> members) {
    if (!node.isObject()) {
      return;
    }
    for (String field : MEMBER_FIELDS) {
      JsonNode value = node.get(field);
      if (value != null && value.isString()) {
        members.add(value.asString());
      }
    }
  }
}
