package io.agentteams.scheduler.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.scheduler.a2a.domain.AgentCard;
import io.agentteams.scheduler.a2a.domain.TaskSnapshot;
import io.agentteams.scheduler.a2a.domain.TaskState;
import io.agentteams.scheduler.budget.domain.Usage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class A2aWireTest {

  private final JsonMapper json = JsonMapper.builder().build();

  private JsonNode tree(String text) {
    return json.readTree(text);
  }

  /**
   * Usage an agent reports in {@code metadata.usage} of its task, status updates or artifacts is
   * the job's usage so far: each measure only grows, the latest model named counts, and a model
   * that is not a printable name is dropped while its amounts still count.
   */
  /**
   * Agents built on protobuf's {@code Struct} (the Python A2A SDK's) send every number as a double:
   * {@code 11.0} is eleven tokens; a real fraction is not an amount.
   */
  @Test
  void usageAmountsWrittenWithAZeroFractionCountAsWholeNumbers() {
    TaskSnapshot task =
        A2aWire.apply(
            null,
            tree(
                """
                {"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},
                 "metadata":{"usage":{"input_tokens":11.0,"output_tokens":4.00,"cost":7.0,
                                      "tokens":2.5,"model":"m-1"}}}}
                """));
    assertThat(task.usage()).isEqualTo(new Usage(15, 7, 11, 4, "m-1"));
    TaskSnapshot huge =
        A2aWire.apply(
            null,
            tree(
                """
                {"task":{"id":"t2","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},
                 "metadata":{"usage":{"input_tokens":1.0e30,"output_tokens":-3.0}}}}
                """));
    assertThat(huge.usage().inputTokens()).isEqualTo(1_000_000_000_000_000L);
    assertThat(huge.usage().outputTokens()).isZero();
  }

  @Test
  void usageInMetadataIsTheTasksUsageSoFarWithTheLatestModelNamed() {
    TaskSnapshot task =
        A2aWire.apply(
            null,
            tree(
                """
                {"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},
                 "metadata":{"usage":{"input_tokens":10,"output_tokens":2,"model":"m-1"}}}}
                """));
    assertThat(task.usage()).isEqualTo(new Usage(12, 0, 10, 2, "m-1"));
    TaskSnapshot artifact =
        A2aWire.apply(
            task,
            tree(
                """
                {"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a",
                 "parts":[{"text":"done"}],
                 "metadata":{"usage":{"input_tokens":5,"output_tokens":8,"cost":30}}}}}
                """));
    assertThat(artifact.usage()).isEqualTo(new Usage(18, 30, 10, 8, "m-1"));
    TaskSnapshot done =
        A2aWire.apply(
            artifact,
            tree(
                """
                {"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_COMPLETED"},
                 "metadata":{"usage":{"input_tokens":40,"output_tokens":9,"cost":-4,
                 "model":"m-2"}}}}
                """));
    assertThat(done.usage()).isEqualTo(new Usage(49, 30, 40, 9, "m-2"));
    TaskSnapshot unprintable =
        A2aWire.apply(
            done,
            tree(
                """
                {"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_COMPLETED"},
                 "metadata":{"usage":{"tokens":60,"model":"bad\\u0007model"}}}}
                """));
    assertThat(unprintable.usage()).isEqualTo(new Usage(60, 30, 40, 9, "m-2"));
    assertThat(
            A2aWire.task(tree("{\"id\":\"t2\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}"))
                .usage())
        .isEqualTo(Usage.NONE);
  }

  @Test
  void aStreamIsFoldedFromItsTaskThroughStatusAndArtifactUpdates() {
    TaskSnapshot task =
        A2aWire.apply(
            null,
            tree(
                """
                {"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_SUBMITTED"}}}
                """));
    TaskSnapshot working =
        A2aWire.apply(
            task,
            tree(
                """
                {"statusUpdate":{"taskId":"t1","contextId":"c1",
                 "status":{"state":"TASK_STATE_WORKING"}}}
                """));
    TaskSnapshot first =
        A2aWire.apply(
            working,
            tree(
                """
                {"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a",
                 "parts":[{"text":"Hello, "}]}}}
                """));
    TaskSnapshot appended =
        A2aWire.apply(
            first,
            tree(
                """
                {"artifactUpdate":{"taskId":"t1","append":true,"artifact":{"artifactId":"a",
                 "parts":[{"text":"world"}]}}}
                """));
    TaskSnapshot done =
        A2aWire.apply(
            appended,
            tree(
                """
                {"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_COMPLETED"}}}
                """));

    assertThat(task.taskId()).isEqualTo("t1");
    assertThat(task.contextId()).isEqualTo("c1");
    assertThat(working.state()).isEqualTo(TaskState.WORKING);
    assertThat(done.state()).isEqualTo(TaskState.COMPLETED);
    assertThat(done.answer()).isEqualTo("Hello, world");
  }

  @Test
  void aQuestionOrAReasonIsTheStatusMessagesText() {
    TaskSnapshot asking =
        A2aWire.task(
            tree(
                """
                {"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_INPUT_REQUIRED",
                 "message":{"role":"ROLE_AGENT","parts":[{"text":"Which colour?"}]}}}
                """));

    assertThat(asking.state()).isEqualTo(TaskState.INPUT_REQUIRED);
    assertThat(asking.statusText()).isEqualTo("Which colour?");
    assertThat(asking.answer()).isEqualTo("Which colour?");
  }

  @Test
  void aDirectMessageAnswerEndsTheExchange() {
    TaskSnapshot answered =
        A2aWire.apply(
            null,
            tree(
                """
                {"message":{"messageId":"m","contextId":"c1","role":"ROLE_AGENT",
                 "parts":[{"text":"done at once"}]}}
                """));

    assertThat(answered.taskId()).isNull();
    assertThat(answered.state()).isEqualTo(TaskState.COMPLETED);
    assertThat(answered.answer()).isEqualTo("done at once");
  }

  @Test
  void anUpdateBeforeAnyTaskIsRefused() {
    assertThatThrownBy(
            () ->
                A2aWire.apply(
                    null,
                    tree(
                        """
                        {"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"}}}
                        """)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("neither a task nor a message");
  }

  @Test
  void aMessageIsFoundInATasksHistory() {
    JsonNode task =
        tree(
            """
            {"id":"t1","contextId":"c1","history":[{"messageId":"job-1"},{"messageId":"x"}]}
            """);

    assertThat(A2aWire.historyHolds(task, "job-1")).isTrue();
    assertThat(A2aWire.historyHolds(task, "job-2")).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    "TASK_STATE_WORKING, WORKING",
    "TASK_STATE_INPUT_REQUIRED, INPUT_REQUIRED",
    "input-required, INPUT_REQUIRED",
    "canceled, CANCELED",
    "TASK_STATE_AUTH_REQUIRED, AUTH_REQUIRED",
    "TASK_STATE_SOMETHING_NEW, UNSPECIFIED",
  })
  void statesAreReadByTheirJsonNames(String wire, TaskState state) {
    assertThat(TaskState.fromWire(wire)).isEqualTo(state);
  }

  @Test
  void theCardsJsonRpcInterfaceAtVersionOneIsChosen() {
    AgentCard card =
        A2aWire.card(
            tree(
                """
                {"supportedInterfaces":[
                   {"url":"https://agent.example/grpc","protocolBinding":"GRPC","protocolVersion":"1.0"},
                   {"url":"https://agent.example/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
                   {"url":"https://agent.example/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
                 "capabilities":{"streaming":true}}
                """));

    assertThat(card.interfaceUrl()).isEqualTo("https://agent.example/rpc");
    assertThat(card.streaming()).isTrue();
    assertThatThrownBy(
            () ->
                A2aWire.card(
                    tree(
                        """
                        {"supportedInterfaces":[{"url":"https://agent.example/rest",
                          "protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}
                        """)))
        .hasMessageContaining("no JSON-RPC interface");
  }
}
