package io.agentteams.scheduler.run.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.scheduler.run.domain.WrittenTask;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class PlanReaderTest {

  private static final List<String> MEMBERS = List.of("lead", "researcher", "writer", "reviewer");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void readsAPlainArrayOfTasks() {
    PlanReader.Reading reading =
        PlanReader.read(
            """
            [{"id": "research", "assignee": "researcher", "title": "Research",
              "instruction": "Find the audience", "dependencies": []},
             {"id": "write", "assignee": "writer", "instruction": "Write it",
              "dependencies": ["research"]}]
            """,
            MEMBERS);

    assertThat(tasks(reading))
        .containsExactly(
            new WrittenTask("research", "researcher", "Research", "Find the audience", List.of()),
            new WrittenTask("write", "writer", "Write it", "Write it", List.of("research")));
  }

  @Test
  void readsAFencedObjectInsideProseWithAliasesAndLenientSyntax() {
    PlanReader.Reading reading =
        PlanReader.read(
            """
            Sure! Here is my plan:

            ```json
            {'plan': {
              tasks: [
                {"Task ID": "Step 1", "member": "@Researcher", "goal": "Find the audience",},
                {"taskId": "Step 2", "agent": "writer", "description": "Draft",
                 "depends_on": "Step 1"}, // the draft needs the research
              ]
            }}
            ```
            Let me know if you want changes.
            """,
            MEMBERS);

    assertThat(tasks(reading))
        .extracting(WrittenTask::id, WrittenTask::assignee, WrittenTask::dependencies)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Step 1", "researcher", List.of()),
            org.assertj.core.groups.Tuple.tuple("Step 2", "writer", List.of("Step 1")));
  }

  @Test
  void readsJsonEmbeddedInProseAndNumericDependenciesByPositionWhenNoTaskHasThatId() {
    PlanReader.Reading reading =
        PlanReader.read(
            "I will split it up. [{\"assignee\": \"writer\", \"instruction\": \"outline\"},"
                + " {\"assignee\": \"reviewer\", \"instruction\": \"check [it]\","
                + " \"deps\": [1]}] That is all.",
            MEMBERS);

    // The first task has no id: the board will key it task_1, which the dependency names.
    assertThat(tasks(reading))
        .extracting(WrittenTask::id, WrittenTask::dependencies)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(null, List.of()),
            org.assertj.core.groups.Tuple.tuple(null, List.of("task_1")));

    PlanReader.Reading named =
        PlanReader.read(
            "[{\"id\": \"A\", \"assignee\": \"writer\", \"goal\": \"x\"},"
                + " {\"id\": \"1\", \"assignee\": \"writer\", \"goal\": \"y\"},"
                + " {\"id\": \"c\", \"assignee\": \"writer\", \"goal\": \"z\","
                + " \"deps\": [\"1\", 2]}]",
            MEMBERS);
    // "1" is the second task's id, so it names that task; 2 is no id, so the second position.
    assertThat(tasks(named).get(2).dependencies()).containsExactly("1");
  }

  @Test
  void passesAnUnknownAssigneeOnAsWrittenForThePlanToRefuse() {
    PlanReader.Reading reading =
        PlanReader.read("[{\"id\": \"a\", \"assignee\": \"ghost\", \"goal\": \"x\"}]", MEMBERS);

    assertThat(tasks(reading)).extracting(WrittenTask::assignee).containsExactly("ghost");
  }

  @Test
  void saysWhyNothingCouldBeRead() {
    assertThat(PlanReader.read("I think we should just do it.", MEMBERS))
        .isEqualTo(new PlanReader.Unreadable("the answer holds no JSON"));
    assertThat(PlanReader.read("{\"thoughts\": \"hmm\"}", MEMBERS))
        .isEqualTo(new PlanReader.Unreadable("no list of tasks was found in the answer's JSON"));
    assertThat(PlanReader.read("[{\"id\": \"a\", \"goal\": \"x\"}]", MEMBERS))
        .isEqualTo(new PlanReader.Unreadable("task 'a' names no assignee"));
    assertThat(PlanReader.read("[{\"goal\": \"x\"}]", MEMBERS))
        .isEqualTo(new PlanReader.Unreadable("task 1 names no assignee"));
  }

  /** Whatever shape and field names a plan is written in, the same tasks are read back. */
  @Property(tries = 300)
  void readsTheSameTasksFromEveryShapeAPlannerWrites(
      @ForAll("plans") List<WrittenTask> plan,
      @ForAll("shapes") Shape shape,
      @ForAll("aliases") Aliases aliases) {
    String answer = shape.write(render(plan, aliases));

    assertThat(tasks(PlanReader.read(answer, MEMBERS))).isEqualTo(plan);
  }

  /** How the JSON sits in the answer. */
  enum Shape {
    BARE,
    WRAPPED,
    FENCED,
    PROSE;

    String write(ArrayNode tasks) {
      return switch (this) {
        case BARE -> tasks.toString();
        case WRAPPED -> JSON.createObjectNode().set("tasks", tasks).toString();
        case FENCED ->
            "Here is the plan:\n```json\n" + tasks.toPrettyString() + "\n```\nShall I go on?";
        case PROSE -> "My plan {roughly}: " + tasks + " - done.";
      };
    }
  }

  /** The field names a planner chose. */
  record Aliases(String id, String assignee, String instruction, String dependencies) {}

  @Provide
  Arbitrary<Shape> shapes() {
    return Arbitraries.of(Shape.class);
  }

  @Provide
  Arbitrary<Aliases> aliases() {
    return Combinators.combine(
            Arbitraries.of("id", "task_id", "taskId", "key"),
            Arbitraries.of("assignee", "member", "agent", "assigned_to"),
            Arbitraries.of("instruction", "goal", "description", "task"),
            Arbitraries.of("dependencies", "depends_on", "deps", "after"))
        .as(Aliases::new);
  }

  @Provide
  Arbitrary<List<WrittenTask>> plans() {
    return Arbitraries.integers()
        .between(1, 8)
        .flatMap(
            size ->
                Combinators.combine(
                        Arbitraries.of(MEMBERS).list().ofSize(size),
                        Arbitraries.strings()
                            .withCharRange('a', 'z')
                            .withChars(' ', '"', '\'', '[', '{', '}', ']', 'é')
                            .ofMinLength(1)
                            .ofMaxLength(40)
                            .filter(s -> !s.isBlank())
                            .list()
                            .ofSize(size),
                        Arbitraries.integers().between(0, 1 << 10).list().ofSize(size))
                    .as(
                        (assignees, instructions, masks) -> {
                          List<WrittenTask> tasks = new ArrayList<>();
                          for (int i = 0; i < size; i++) {
                            List<String> dependencies = new ArrayList<>();
                            for (int j = 0; j < i; j++) {
                              if ((masks.get(i) & (1 << j)) != 0) {
                                dependencies.add("t" + j);
                              }
                            }
                            String instruction = instructions.get(i).strip();
                            tasks.add(
                                new WrittenTask(
                                    "T" + i,
                                    assignees.get(i),
                                    instruction.length() <= 80
                                        ? instruction
                                        : instruction.substring(0, 80),
                                    instruction,
                                    dependencies));
                          }
                          return tasks;
                        }));
  }

  private static ArrayNode render(List<WrittenTask> plan, Aliases aliases) {
    ArrayNode array = JSON.createArrayNode();
    for (int i = 0; i < plan.size(); i++) {
      WrittenTask task = plan.get(i);
      ObjectNode node = array.addObject();
      node.put(aliases.id(), String.valueOf(task.id()));
      // Planners write members as they please: capitalised, or as a mention.
      node.put(
          aliases.assignee(), i % 2 == 0 ? "@" + task.assignee() : capitalised(task.assignee()));
      node.put(aliases.instruction(), task.instruction());
      ArrayNode dependencies = node.putArray(aliases.dependencies());
      task.dependencies().forEach(dependencies::add);
    }
    return array;
  }

  private static String capitalised(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  private static List<WrittenTask> tasks(PlanReader.Reading reading) {
    assertThat(reading).isInstanceOf(PlanReader.Read.class);
    return ((PlanReader.Read) reading).tasks();
  }
}
