package io.agentteams.agents.scripted;

import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.messages.ResultDetail;
import io.agentteams.sdk.problem.ConflictException;
import io.agentteams.sdk.problem.NotFoundException;
import io.agentteams.sdk.state.EntryChange;
import io.agentteams.sdk.state.NewEntry;
import io.agentteams.sdk.state.StateEntry;
import io.agentteams.sdk.state.StateQuery;
import io.agentteams.sdk.tasks.PlannedTask;
import io.agentteams.sdk.tasks.Task;
import io.agentteams.sdk.tasks.TaskOutcome;
import io.agentteams.sdk.teams.TeamContext;
import io.agentteams.sdk.worker.JobOffer;
import io.agentteams.sdk.worker.JobResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The steps of the reference scripts, each idempotent: writes carry ids derived from the job and
 * the step ({@code request_id}, {@code client_message_id}, {@code idempotency_key}), and board
 * steps look before they act (a task this member already claimed or completed is taken as done).
 */
public final class Steps {

  /** How long a step waits for the board or a result to catch up before it gives up. */
  static final Duration PATIENCE = Duration.ofSeconds(60);

  private Steps() {}

  /** Reads the team's context and this member's unread messages. */
  public static Step readContext() {
    return named(
        "read context",
        turn -> {
          TeamContext context = turn.tools().readTeamContext();
          turn.set("goal", context.goal());
          int unread = turn.tools().readMessages(null, null).messages().size();
          turn.set("unread", Integer.toString(unread));
          return Optional.empty();
        });
  }

  /** Publishes a state entry (the step's key is its request id, so a re-run returns it). */
  public static Step publish(String kind, String title, String content) {
    return named(
        "publish " + kind,
        turn -> {
          turn.tools()
              .publishTeamState(
                  new NewEntry(turn.key(), kind, turn.fill(title), turn.fill(content)));
          return Optional.empty();
        });
  }

  /**
   * Rewrites the content of the entry with that title, compare-and-set on its revision (reading it
   * again after a conflict). Nothing is written when the content is already that.
   */
  public static Step updateEntry(String title, String content) {
    return named(
        "update " + title,
        turn -> {
          String wanted = turn.fill(content);
          for (int attempt = 0; attempt < 5; attempt++) {
            Optional<StateEntry> entry =
                turn
                    .tools()
                    .readTeamState(new StateQuery(null, null, turn.fill(title), null))
                    .entries()
                    .stream()
                    .filter(e -> e.title().equals(turn.fill(title)))
                    .findFirst();
            if (entry.isEmpty() || entry.get().content().equals(wanted)) {
              return Optional.empty();
            }
            if (turn.tools()
                .updateTeamState(
                    entry.get().id(), EntryChange.content(entry.get().revision(), wanted))
                .updated()) {
              return Optional.empty();
            }
          }
          return Optional.of(
              JobResult.failed("could not update '" + title + "': it kept changing", usage()));
        });
  }

  /** Imports a plan, unless its first task is on the board already (a re-run). */
  public static Step importPlan(List<PlannedTask> plan) {
    return named(
        "import plan",
        turn -> {
          String firstKey = Objects.requireNonNull(plan.get(0).id());
          if (turn.planned(firstKey).isPresent()) {
            return Optional.empty();
          }
          List<PlannedTask> filled = new ArrayList<>();
          for (PlannedTask task : plan) {
            filled.add(
                new PlannedTask(
                    task.id(),
                    turn.fill(task.title()),
                    task.description() == null ? null : turn.fill(task.description()),
                    task.dependsOn(),
                    task.writeScopes(),
                    task.assignee()));
          }
          turn.tools().importPlan(filled, false);
          return Optional.empty();
        });
  }

  /**
   * Claims the task a plan key became, waiting (with {@code wait}) while its dependencies are
   * unfinished. A task this member already holds or completed is taken as it is.
   */
  public static Step claim(String planKey) {
    return named(
        "claim " + planKey,
        turn -> {
          Instant deadline = Instant.now().plus(PATIENCE);
          while (Instant.now().isBefore(deadline)) {
            Task task =
                turn.planned(planKey)
                    .orElseThrow(() -> new IllegalStateException("no task " + planKey));
            if (turn.member().equals(task.owner())
                && ("in_progress".equals(task.status()) || "completed".equals(task.status()))) {
              turn.task(task);
              return Optional.empty();
            }
            if (task.claimable()) {
              try {
                turn.task(turn.tools().claimTask(task.id(), task.revision()).task());
                return Optional.empty();
              } catch (ConflictException e) {
                continue; // it changed under us: look again
              }
            }
            turn.tools().waitForChange(2_000L);
          }
          return Optional.of(
              JobResult.failed("task " + planKey + " did not become ready in time", usage()));
        });
  }

  /** A heartbeat with progress on the member's current task (nothing once it is completed). */
  public static Step heartbeat(String phase, int percent) {
    return named(
        "heartbeat " + phase,
        turn -> {
          Task task = current(turn);
          if (!"in_progress".equals(task.status())) {
            return Optional.empty();
          }
          turn.task(turn.tools().heartbeatTask(task.id(), task.revision(), phase, percent).task());
          return Optional.empty();
        });
  }

  /** Completes the member's current task with a result (nothing if it is completed already). */
  public static Step complete(String result) {
    return named(
        "complete",
        turn -> {
          Task task = current(turn);
          if ("completed".equals(task.status())) {
            return Optional.empty();
          }
          TaskOutcome done =
              turn.tools().completeTask(task.id(), task.revision(), turn.fill(result));
          turn.task(done.task());
          return Optional.empty();
        });
  }

  /** A direct message (the step's key makes a re-send a replay). */
  public static Step message(String to, String text) {
    return named(
        "message " + to,
        turn -> {
          turn.tools().sendMessage(to, turn.fill(text), turn.key());
          return Optional.empty();
        });
  }

  /** A broadcast to every other member. */
  public static Step broadcast(String text) {
    return named(
        "broadcast",
        turn -> {
          turn.tools().broadcast(turn.fill(text), turn.key());
          return Optional.empty();
        });
  }

  /**
   * Hands work to another member ({@code send_member}); its answer comes back as a receipt in a
   * later turn. The step's key is the idempotency key, so a re-run returns the same hand-off.
   */
  public static Step handOff(String to, String text) {
    return named(
        "hand off to " + to,
        turn -> {
          UUID handOff = turn.tools().sendMember(to, turn.fill(text), turn.key()).job().id();
          turn.set("handoff_" + to, handOff.toString());
          return Optional.empty();
        });
  }

  /**
   * Asks the owner a clarification question and stops; when the job resumes with the answer to this
   * question, the step lets the script go on (the answer fills {@code {answer}}).
   */
  public static Step askOwner(String question) {
    return named(
        "ask the owner",
        turn -> {
          String asked = turn.fill(question);
          JobOffer.Resume resume = turn.job().offer().resume();
          if (resume != null && asked.equals(resume.question()) && resume.answer() != null) {
            turn.set("answer", resume.answer());
            return Optional.empty();
          }
          return Optional.of(JobResult.askOwner(asked));
        });
  }

  /**
   * In a receipt: reads the returned hand-off's full result from the team's record (waiting until
   * the mailbox has it) and keeps its answer as {@code {receipt}}.
   */
  public static Step readReceipt() {
    return named(
        "read the receipt",
        turn -> {
          JobOffer offer = turn.job().offer();
          UUID handOff = offer.parentJobId();
          if (handOff == null) {
            return Optional.empty();
          }
          Instant deadline = Instant.now().plus(PATIENCE);
          while (true) {
            try {
              ResultDetail result = turn.tools().readTeamResult(handOff.toString());
              turn.set("receipt", result.answer().text());
              turn.set("receipt_from", result.member());
              return Optional.empty();
            } catch (NotFoundException e) {
              if (Instant.now().isAfter(deadline)) {
                return Optional.of(
                    JobResult.failed("the hand-off's result never arrived", usage()));
              }
              turn.tools().waitForChange(1_000L);
            }
          }
        });
  }

  /** Waits a while, so people watching see the steps one by one; a zero pace skips it (tests). */
  public static Step pause(Duration pace) {
    return named(
        "pause",
        turn -> {
          if (!pace.isZero() && !turn.job().reconciling()) {
            Thread.sleep(pace.toMillis());
          }
          return Optional.empty();
        });
  }

  /** Sets the job's final answer. */
  public static Step answer(String text) {
    return named(
        "answer",
        turn -> {
          turn.answer(turn.fill(text));
          return Optional.empty();
        });
  }

  private static Task current(Turn turn) {
    return turn.task()
        .map(task -> turn.tools().board().get(turn.tools().teamId(), task.id()))
        .orElseThrow(() -> new IllegalStateException("no task claimed before this step"));
  }

  private static Usage usage() {
    return Usage.NONE;
  }

  /** A step that says what it is when printed. */
  private static Step named(String name, Step step) {
    return new Step() {
      @Override
      public Optional<JobResult> run(Turn turn) throws Exception {
        return step.run(turn);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
