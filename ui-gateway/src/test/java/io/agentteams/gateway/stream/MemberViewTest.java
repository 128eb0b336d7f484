package io.agentteams.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.Topics;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class MemberViewTest {

  private final JsonMapper mapper = JsonMapper.builder().build();

  private FeedEvent event(String topic, String type, String data) {
    return new FeedEvent(
        "e",
        "t",
        "alice",
        Topics.EVENT_TOPICS.indexOf(topic),
        1,
        type,
        "{}",
        EventAudience.of(mapper.readTree(data)),
        EventCursor.start());
  }

  @Test
  void findsTheMembersAnEventIsAbout() {
    assertThat(
            EventAudience.of(
                mapper.readTree(
                    "{\"sender\":\"lead\",\"recipients\":[{\"member\":\"writer\",\"sequence\":3},"
                        + "{\"member\":\"critic\",\"sequence\":1}]}")))
        .containsExactlyInAnyOrder("lead", "writer", "critic");
    assertThat(
            EventAudience.of(
                mapper.readTree("{\"task\":{\"owner\":\"writer\"},\"created_by\":\"lead\"}")))
        .containsExactlyInAnyOrder("writer", "lead");
    assertThat(EventAudience.of(mapper.readTree("{\"from\":\"a\",\"to\":\"b\",\"reason\":\"x\"}")))
        .isEqualTo(Set.of("a", "b"));
  }

  @Test
  void aMembersStreamHoldsItsMailItsTasksAndTheTeamsLifecycleOnly() {
    var view = MemberEventsController.memberView("writer");
    assertThat(
            view.test(
                event(
                    Topics.MAILBOX_EVENTS,
                    "MessageQueued",
                    "{\"recipients\":[{\"member\":\"writer\"}]}")))
        .isTrue();
    assertThat(
            view.test(
                event(
                    Topics.MAILBOX_EVENTS,
                    "MessageQueued",
                    "{\"recipients\":[{\"member\":\"critic\"}]}")))
        .isFalse();
    assertThat(view.test(event(Topics.TASK_EVENTS, "TaskClaimed", "{\"member\":\"writer\"}")))
        .isTrue();
    assertThat(view.test(event(Topics.TASK_EVENTS, "TaskClaimed", "{\"member\":\"critic\"}")))
        .isFalse();
    assertThat(view.test(event(Topics.TEAM_EVENTS, "TeamReady", "{}"))).isTrue();
    assertThat(
            view.test(event(Topics.SCHEDULER_EVENTS, "JobStateChanged", "{\"member\":\"critic\"}")))
        .isFalse();
  }

  @Test
  void waitWakesOnRosterStatusAnyTaskAndOwnMailButNotOnStateEdits() {
    var wait = MemberEventsController.waitView("writer");
    assertThat(wait.test(event(Topics.TASK_EVENTS, "TaskCreated", "{\"task\":{\"owner\":null}}")))
        .isTrue();
    assertThat(wait.test(event(Topics.TEAM_EVENTS, "TeamStatePublished", "{}"))).isFalse();
    assertThat(wait.test(event(Topics.TEAM_EVENTS, "TeamDeleted", "{}"))).isTrue();
    assertThat(
            wait.test(
                event(
                    Topics.MAILBOX_EVENTS,
                    "MessageQueued",
                    "{\"recipients\":[{\"member\":\"critic\"}]}")))
        .isFalse();
    assertThat(
            wait.test(event(Topics.SCHEDULER_EVENTS, "JobStateChanged", "{\"member\":\"writer\"}")))
        .isTrue();
  }
}
